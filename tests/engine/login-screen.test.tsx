// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from '../../src/app/router';
import loginModule from '../../src/generated/screens/login';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';
import { setReportSink } from '../../src/api/report';
import { decodeStateJson } from '../../catalogue/language/state-param';
import { forgetAppConfig } from '../../src/api/app-config';

/**
 * The real generated login screen (screen file + precompiled validators) in the app's providers,
 * against a fetch stub that routes by URL like the reference server would.
 */
const SSO_DOMAIN = '@sso.example.com';
const INVALID_CREDENTIALS = 'Invalid username/password. Please contact your system administrator for assistance.';

interface Call {
  url: string;
  body: Record<string, unknown> | undefined;
}

let calls: Call[] = [];
let loginAnswer: () => Promise<Response> | Response;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

function installFetch() {
  calls = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string, init: RequestInit = {}) => {
      const url = String(input);
      const body = typeof init.body === 'string' ? (JSON.parse(init.body) as Record<string, unknown>) : undefined;
      calls.push({ url, body });
      if (url === '/ws/account/authentication-state') {
        const email = String(body?.email ?? '');
        return json(email.endsWith(SSO_DOMAIN) ? { authState: 'SSO', idpName: 'Demo IdP' } : { authState: 'NONE' });
      }
      if (url === '/ws/account/login') return loginAnswer();
      if (url === '/ws/app-config') return json({ environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } });
      if (url.startsWith('/branding/generalData')) return json({ isEnabled: true, theme: 'theme-ninja-blue' });
      return json({ error: 'NOT_FOUND' }, 404);
    }),
  );
}

const callsTo = (path: string) => calls.filter((c) => c.url === path);

function MfaProbe() {
  const location = useLocation();
  return <p data-testid="mfa">{location.pathname + location.search}</p>;
}

function renderLogin(initial = '/login') {
  return render(
    <MessageProvider>
      <MemoryRouter initialEntries={[initial]}>
        <AppEngineHost>
          <Routes>
            <Route path="/login" element={<AppScreen module={loginModule} />} />
            <Route path="/mfa" element={<MfaProbe />} />
          </Routes>
        </AppEngineHost>
      </MemoryRouter>
    </MessageProvider>,
  );
}

const reports = vi.fn();

beforeAll(async () => {
  await startI18n('en-us');
});

beforeEach(() => {
  loginAnswer = () => json({ resultCode: 'AUTHENTICATION_FAILURE' });
  installFetch();
  reports.mockReset();
  setReportSink(reports);
});

afterEach(() => {
  forgetAppConfig();
  cleanup();
  vi.unstubAllGlobals();
});

describe('login screen', () => {
  it('shows the fields and the button by accessible name', () => {
    renderLogin();
    expect(screen.getByLabelText('Email')).toBeTruthy();
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByLabelText('Keep me signed in')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect((screen.getByLabelText('Password') as HTMLInputElement).type).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot your password?' }).getAttribute('href')).toBe('/resetPassword');
  });

  it('an empty submit shows both required messages and calls nothing', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Email field can not be empty')).toBeTruthy();
    expect(screen.getByText('Password field can not be empty')).toBeTruthy();
    expect(callsTo('/ws/account/login')).toHaveLength(0);
  });

  it('an invalid email shows "Invalid email address" and never probes', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'not-an-email');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    expect(await screen.findByText('Invalid email address')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(callsTo('/ws/account/authentication-state')).toHaveLength(0);
    expect(callsTo('/ws/account/login')).toHaveLength(0);
  });

  it('an SSO email, after the 250 ms debounce, offers the IdP button and hides the password', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), `jo${SSO_DOMAIN}`);
    // Typing just finished: the debounce has not elapsed, so nothing has been asked yet.
    expect(callsTo('/ws/account/authentication-state')).toHaveLength(0);
    expect(await screen.findByRole('button', { name: 'Sign in with Demo IdP' }, { timeout: 2000 })).toBeTruthy();
    expect(screen.queryByLabelText('Password')).toBeNull();
    expect(screen.queryByRole('button', { name: 'Sign in' })).toBeNull();
    // One probe for the final value only, not one per keystroke.
    expect(callsTo('/ws/account/authentication-state')).toEqual([{ url: '/ws/account/authentication-state', body: { email: `jo${SSO_DOMAIN}` } }]);
  });

  it('a non-SSO email keeps the password field after the probe', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'jo@example.com');
    await waitFor(() => expect(callsTo('/ws/account/authentication-state')).toHaveLength(1));
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
  });

  it('AUTHENTICATION_FAILURE shows the SPEC §8 text in an alert and keeps the email', async () => {
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'jo@example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const alert = await waitFor(() => {
      const found = screen.getAllByRole('alert').find((el) => el.textContent === INVALID_CREDENTIALS);
      if (!found) throw new Error('no alert with the invalid-credentials text');
      return found;
    });
    expect(within(alert).getByText(INVALID_CREDENTIALS)).toBeTruthy();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('jo@example.com');
    expect(callsTo('/ws/account/login')).toHaveLength(1);
    expect(callsTo('/ws/account/login')[0]?.body).toMatchObject({ email: 'jo@example.com', password: 'wrong', staySignedIn: false });
    expect(reports).not.toHaveBeenCalled();
  });

  it('HTTP 500 keeps the form, shows an error and reports it', async () => {
    loginAnswer = () => json({ error: 'INTERNAL', incidentId: 'inc-42' }, 500);
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'jo@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const error = await screen.findByText('Error during login');
    expect(error.closest('[role="alert"]')).not.toBeNull();
    expect((screen.getByLabelText('Email') as HTMLInputElement).value).toBe('jo@example.com');
    expect(screen.getByLabelText('Password')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Sign in' })).toBeTruthy();
    expect(reports).toHaveBeenCalledWith(expect.objectContaining({ operation: 'login', code: 'HTTP_500', status: 500, incidentId: 'inc-42' }));
  });

  it('MFA_REQUIRED navigates to /mfa with a state holding mfaType, available_mfa and loginToken', async () => {
    loginAnswer = () => json({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP', 'SMSOTP'], loginToken: 'lt-123' });
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'jo@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    const target = (await screen.findByTestId('mfa')).textContent ?? '';
    const url = new URL(target, 'http://localhost');
    expect(url.pathname).toBe('/mfa');
    expect(decodeStateJson(url.searchParams.get('state'))).toEqual({ mfaType: 'TOTP', available_mfa: ['TOTP', 'SMSOTP'], loginToken: 'lt-123' });
  });

  it('a double click sends one login request while the first is in flight', async () => {
    let release: (response: Response) => void = () => {};
    loginAnswer = () => new Promise<Response>((resolve) => (release = resolve));
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), 'jo@example.com');
    await user.type(screen.getByLabelText('Password'), 'pw');
    const button = screen.getByRole('button', { name: 'Sign in' });
    await user.dblClick(button);
    await user.click(button);
    await waitFor(() => expect(callsTo('/ws/account/login')).toHaveLength(1));
    expect(button.getAttribute('aria-disabled')).toBe('true');
    await act(async () => release(json({ resultCode: 'AUTHENTICATION_FAILURE' })));
    expect(await screen.findByText(INVALID_CREDENTIALS)).toBeTruthy();
    expect(callsTo('/ws/account/login')).toHaveLength(1);
    expect(screen.getByRole('button', { name: 'Sign in' }).getAttribute('aria-disabled')).toBeNull();
  });
});
