// @vitest-environment jsdom
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from '../../src/app/router';
import mfaModule from '../../src/generated/screens/mfa';
import { AppEngineHost, AppScreen } from '../../src/app/engine-host';
import { MessageProvider } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';
import { forgetAppConfig } from '../../src/api/app-config';
import { json, stubFetch } from '../platform/helpers';

/**
 * The real generated /mfa screen, opened as the sign-in's MFA_REQUIRED outcome opens it. When the SMS
 * provider refused the sign-in code's text, the answer says why (textFailure, server/services/signIn.ts)
 * and the screen says so on arrival: without it the visitor waits for a text that never comes.
 */
/** The first render loads the screen's widgets and texts: seconds on a loaded two-core machine (a wait, not a timing). */
const WAIT = { timeout: 10_000 };

const state = (value: Record<string, unknown>) => Buffer.from(JSON.stringify(value)).toString('base64url');

beforeAll(async () => {
  await startI18n('en-us');
});
beforeEach(() => {
  stubFetch({
    '/ws/app-config': () => json({ environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } }),
    '/branding/generalData': () => json({ isEnabled: true, theme: 'theme-ninja-blue' }),
    '/ws/account/mfa-login/trust-device': () => json({ resultCode: 'SUCCESS', days: 30 }),
  });
});
afterEach(() => {
  cleanup();
  forgetAppConfig();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const open = (facts: Record<string, unknown>) =>
  render(
    <MessageProvider>
      <MemoryRouter initialEntries={[`/mfa?state=${state(facts)}`]}>
        <AppEngineHost>
          <Routes>
            <Route path="/mfa" element={<AppScreen module={mfaModule} />} />
          </Routes>
        </AppEngineHost>
      </MemoryRouter>
    </MessageProvider>,
  );

describe('/mfa after a sign-in whose text was refused', () => {
  const sms = { mfaType: 'SMSOTP', available_mfa: ['SMSOTP'], loginToken: 'lt-1' };

  it('says on arrival that the text could not be sent', async () => {
    open({ ...sms, textFailure: 'INVALID_NUMBER' });
    // Announced: the form's alert (the page has other, empty live regions).
    expect((await screen.findByText('An error occurred while sending SMS', {}, WAIT)).closest('[role="alert"]')).not.toBeNull();
    // The way on is still there: Resend code.
    expect(await screen.findByRole('button', { name: 'Resend code' }, WAIT)).toBeTruthy();
  });

  it('control: a text that went out shows no error', async () => {
    open(sms);
    expect(await screen.findByRole('heading', { name: 'Verify your identity' }, WAIT)).toBeTruthy();
    expect(await screen.findByRole('button', { name: 'Resend code' }, WAIT)).toBeTruthy();
    expect(screen.queryByText('An error occurred while sending SMS')).toBeNull();
  });
});
