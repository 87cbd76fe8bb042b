import { callOperation } from '../api/client';
import { EXPIRED_TRIAL_COOKIE } from './cookies';
import type { PageAction } from '../host/host-base';

/**
 * Named side effects that outcomes list in "actions" (xstate style: the catalogue names them, the
 * page's host declares the names in src/app/vocabulary.json, implements them here, the type holding
 * both equal, and hands them to the engine, loading this module when an outcome first names an
 * action). The catalogue check refuses names no host declares.
 */

const EXPIRED_TRIAL_MAX_AGE_S = 24 * 60 * 60;

/** The answer's passkeySignals to the browser (widgets/passkey-browser.ts: feature-detected, never failing); none: nothing loads. */
async function tellPasswordManager(response: unknown): Promise<void> {
  if (response === null || typeof response !== 'object' || !('passkeySignals' in response)) return;
  const { sendPasskeySignals, signalsIn } = await import('../../widgets/passkey-browser');
  await sendPasskeySignals(signalsIn(response));
}

function field(response: unknown, name: string): string | undefined {
  const value = response !== null && typeof response === 'object' ? (response as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export const actions: Record<PageAction, (response: unknown) => void | Promise<void>> = {
  /** ACCOUNT_MOVED: sign out everywhere before leaving for the new server (SPEC §4); the passkeys it removed are signalled. */
  logoutAllSessions: async () => {
    const result = await callOperation('logout', { sessions: 'all' });
    await tellPasswordManager(result.data);
  },
  /** A passkey sign-in's answer, or "This wasn't me": tell the browser's password manager what the server said (issue 37). */
  passkeySignals: (response) => tellPasswordManager(response),
  /** TRIAL_EXPIRED: keep the expired-trial session key in a secure cookie (SPEC §4). */
  storeExpiredTrialSession: (response) => {
    const key = field(response, 'expiredTrialSessionKey') ?? field(response, 'expiredDivisionSessionKey');
    if (!key) return;
    document.cookie = `${EXPIRED_TRIAL_COOKIE}=${encodeURIComponent(key)}; Path=/; Max-Age=${EXPIRED_TRIAL_MAX_AGE_S}; SameSite=Strict; Secure`;
  },
  /** After an expired-trial request: the cookie has served its purpose. */
  clearExpiredTrialSession: () => {
    document.cookie = `${EXPIRED_TRIAL_COOKIE}=; Path=/; Max-Age=0; SameSite=Strict; Secure`;
  },
};
