// @vitest-environment jsdom
import type { ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from '../../src/app/router';
import loginModule from '../../src/generated/screens/login';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';
import { forgetAppConfig } from '../../src/api/app-config';
import { EngineHostProvider, useEngineHost, type EngineHost, type SubmitSpec } from '../../src/engine';
import { PREFETCH_LIMIT, prefetchTargets } from '../../src/engine/runtime/prefetch';
import { NO_SHARED_OUTCOMES } from '../../catalogue/language/outcome-lookup';
import { json, stubFetch } from '../platform/helpers';

/**
 * As a call starts, the engine asks its host to prefetch where the call's outcome table can lead
 * (src/engine/runtime/prefetch.ts, EngineHost.prefetch), while the server answers; never in the
 * call's way. The real generated login screen, in the app's host with its prefetch replaced by a spy.
 */
const SSO_EMAIL = 'jo@sso.example.com';

let release: (response: Response) => void = () => undefined;
let urls: string[] = [];

beforeAll(async () => {
  await startI18n('en-us');
});

beforeEach(() => {
  urls = stubFetch({
    '/ws/app-config': () => json({ environment: 'development', selfRegistrationEnabled: true }),
    '/branding/generalData': () => json({ isEnabled: true, theme: 'theme-ninja-blue' }),
    '/ws/account/authentication-state': () => json({ authState: 'NONE' }),
    // The sign-in answers only when the test releases it: what happens meanwhile is the point.
    '/ws/account/login': () => new Promise<Response>((resolve) => (release = resolve)),
  });
});

afterEach(() => {
  cleanup();
  forgetAppConfig();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

/** The app's host, its prefetch replaced. */
function SpyHost({ prefetch, children }: { prefetch: EngineHost['prefetch']; children: ReactNode }) {
  const host = useEngineHost();
  return <EngineHostProvider value={{ ...host, prefetch }}>{children}</EngineHostProvider>;
}

function Where() {
  const { pathname } = useLocation();
  return <p data-testid="where">{pathname}</p>;
}

function renderLogin(prefetch: EngineHost['prefetch']) {
  return render(
    <MessageProvider>
      <MemoryRouter initialEntries={['/login']}>
        <AppEngineHost>
          <SpyHost prefetch={prefetch}>
            <Routes>
              <Route path="/login" element={<AppScreen module={loginModule} />} />
              <Route path="/mfa" element={<Where />} />
            </Routes>
          </SpyHost>
        </AppEngineHost>
      </MemoryRouter>
    </MessageProvider>,
  );
}

async function signIn() {
  const user = userEvent.setup();
  await user.type(screen.getByLabelText('Email'), 'jo@example.com');
  await user.type(screen.getByLabelText('Password'), 'pw');
  await waitFor(() => expect(urls).toContain('/ws/account/authentication-state'), { timeout: 5000 });
  await user.click(screen.getByRole('button', { name: 'Sign in' }));
  await waitFor(() => expect(urls).toContain('/ws/account/login'));
}

const loginSubmit = (): SubmitSpec => {
  const submits = loginModule.screen.steps.credentials?.submit;
  const found = (Array.isArray(submits) ? submits : [submits]).find((submit) => submit?.operation === 'login');
  if (!found) throw new Error('the login screen has no login submit');
  return found;
};

describe('what a call can lead to (prefetchTargets)', () => {
  it("the login submit's own targets, then its shared blocks', placeholders kept, each once, a handful at most", () => {
    const targets = prefetchTargets(loginSubmit(), loginModule.outcomes);
    expect(targets).toEqual({ paths: ['/resetPassword/{verificationCode}', '/mfa', '/mfa/setup', '/trialExpired'], authenticate: true });
    expect(targets.paths.length).toBeLessThanOrEqual(PREFETCH_LIMIT);
  });

  it('deduplicates, caps, sees authenticate, and reads only tables the call includes', () => {
    const shared = {
      ...NO_SHARED_OUTCOMES,
      blocks: { a: { X: { navigate: { to: '/one' } }, Y: { authenticate: true } }, b: { Z: { navigate: { to: '/six' } } } },
    };
    const outcomes = Object.fromEntries(['/one', '/two', '/one', '/three', '/four', '/five'].map((to, i) => [`C${i}`, { navigate: { to } }]));
    expect(prefetchTargets({ outcomes, include: ['a', 'b'] }, shared)).toEqual({ paths: ['/one', '/two', '/three', '/four'], authenticate: true });
    expect(prefetchTargets({ outcomes: { '*': { error: 'x' }, N: { authenticate: false } }, include: ['toString'] }, shared)).toEqual({
      paths: [],
      authenticate: false,
    });
  });
});

describe('a submit asks the host to prefetch', () => {
  it("exactly the login's outcome targets, once, while the sign-in is still unanswered", async () => {
    const prefetch = vi.fn();
    renderLogin(prefetch);
    await signIn();
    // The email probe's outcomes lead nowhere: nothing was asked for it.
    expect(urls).toContain('/ws/account/authentication-state');
    expect(prefetch).toHaveBeenCalledTimes(1);
    expect(prefetch).toHaveBeenCalledWith({ paths: ['/resetPassword/{verificationCode}', '/mfa', '/mfa/setup', '/trialExpired'], authenticate: true });
    release(json({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP'], loginToken: 'lt-1' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/mfa');
    expect(prefetch).toHaveBeenCalledTimes(1);
  });

  it('nothing when the call leads nowhere (the SSO submit only redirects or shows errors)', async () => {
    vi.unstubAllGlobals();
    urls = stubFetch({
      '/ws/app-config': () => json({ environment: 'development', selfRegistrationEnabled: true }),
      '/ws/account/authentication-state': () => json({ authState: 'SSO', idpName: 'Demo IdP' }),
      '/ws/account/saml-init': () => json({ resultCode: 'SSO_NOT_CONFIGURED' }),
    });
    const prefetch = vi.fn();
    const user = userEvent.setup();
    renderLogin(prefetch);
    await user.type(screen.getByLabelText('Email'), SSO_EMAIL);
    await user.click(await screen.findByRole('button', { name: 'Sign in with Demo IdP' }, { timeout: 10_000 }));
    await waitFor(() => expect(urls.some((url) => url.startsWith('/ws/account/saml'))).toBe(true));
    // The answer was handled (its error shown): the call ran its course without a prefetch.
    expect(await screen.findByText(/issue with your Single Sign-On configuration/)).toBeTruthy();
    expect(prefetch).not.toHaveBeenCalled();
  });

  it('a prefetch that throws does not break the submit: the answer still leads on', async () => {
    vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const prefetch = vi.fn(() => {
      throw new Error('chunk server down');
    });
    renderLogin(prefetch);
    await signIn();
    expect(prefetch).toHaveBeenCalledTimes(1);
    release(json({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP'], loginToken: 'lt-1' }));
    expect((await screen.findByTestId('where')).textContent).toBe('/mfa');
  });
});
