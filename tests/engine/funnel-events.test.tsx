// @vitest-environment jsdom
import { useMemo, type ReactNode } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes } from '../../src/app/router';
import loginModule from '../../src/generated/screens/login';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';
import { forgetAppConfig } from '../../src/api/app-config';
import { EngineHostProvider, useEngineHost, type FunnelEvent } from '../../src/engine';

/**
 * What the engine reports to its host's funnel (issue 38) on the real login screen: the step shown,
 * each failing field with its keyword, the submit, the result code and the completion; never a value
 * the visitor typed.
 */
const EMAIL = 'funnel.visitor@example.com';
const PASSWORD = 'Typed-Secret-123';
let events: FunnelEvent[] = [];
let loginCode = 'AUTHENTICATION_FAILURE';

const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });

function Spy({ children }: { children: ReactNode }) {
  const host = useEngineHost();
  const spied = useMemo(() => ({ ...host, funnel: (event: FunnelEvent) => void events.push(event) }), [host]);
  return <EngineHostProvider value={spied}>{children}</EngineHostProvider>;
}

function renderLogin() {
  render(
    <MessageProvider>
      <MemoryRouter initialEntries={['/login']}>
        <AppEngineHost>
          <Spy>
            <Routes>
              <Route path="/login" element={<AppScreen module={loginModule} />} />
              <Route path="/mfa" element={<p>mfa</p>} />
            </Routes>
          </Spy>
        </AppEngineHost>
      </MemoryRouter>
    </MessageProvider>,
  );
}

beforeAll(async () => {
  await startI18n('en-us');
});

afterEach(() => {
  forgetAppConfig();
  cleanup();
  vi.unstubAllGlobals();
  events = [];
});

function stubServer() {
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = String(input);
      if (url === '/ws/account/authentication-state') return json({ authState: 'NONE' });
      if (url === '/ws/account/login') return json({ resultCode: loginCode, mfaType: 'TOTP', loginToken: 'tok' });
      if (url === '/ws/app-config') return json({ environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } });
      return json({});
    }),
  );
}

describe("the engine's funnel events", () => {
  it('reports the step, the failing fields and keywords of an empty submit, then the submit and its code; no value', async () => {
    stubServer();
    const user = userEvent.setup();
    renderLogin();
    await waitFor(() => expect(events).toContainEqual({ kind: 'step', screen: 'login', step: 'credentials' }));
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await screen.findByText('Email field can not be empty');
    expect(events.filter((e) => e.kind === 'fieldError')).toEqual([
      { kind: 'fieldError', screen: 'login', step: 'credentials', field: 'email', keyword: 'required' },
      { kind: 'fieldError', screen: 'login', step: 'credentials', field: 'password', keyword: 'required' },
    ]);
    await user.type(screen.getByLabelText('Email'), EMAIL);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(events).toContainEqual({ kind: 'outcome', screen: 'login', step: 'credentials', code: 'AUTHENTICATION_FAILURE' }));
    expect(events).toContainEqual({ kind: 'submit', screen: 'login', step: 'credentials' });
    // A refused sign-in stays on the screen: no completion; the e-mail probe's answer is no outcome.
    expect(events.filter((e) => e.kind === 'complete' || (e.kind === 'outcome' && e.code === 'NONE'))).toEqual([]);
    expect(JSON.stringify(events)).not.toContain(EMAIL);
    expect(JSON.stringify(events)).not.toContain(PASSWORD);
  });

  it('reports a completion when the answer takes the visitor on', async () => {
    loginCode = 'MFA_REQUIRED';
    stubServer();
    const user = userEvent.setup();
    renderLogin();
    await user.type(screen.getByLabelText('Email'), EMAIL);
    await user.type(screen.getByLabelText('Password'), PASSWORD);
    await user.click(screen.getByRole('button', { name: 'Sign in' }));
    await waitFor(() => expect(events).toContainEqual({ kind: 'complete', screen: 'login', step: 'credentials' }));
    expect(events).toContainEqual({ kind: 'outcome', screen: 'login', step: 'credentials', code: 'MFA_REQUIRED' });
  });
});
