import { callOperation } from '../api/client';
import type { PageActionName } from '../engine/action-names';
import type { EngineHost } from '../engine/host';
import { EXPIRED_TRIAL_COOKIE } from './cookies';

/**
 * Named side effects that outcomes list in "actions" (xstate style: the catalogue names them,
 * src/engine/action-names.ts lists the names, the app implements them here and hands them to the
 * engine through its host, which loads this module when an outcome first names an action). The
 * catalogue check refuses names missing from that list.
 */

const EXPIRED_TRIAL_MAX_AGE_S = 24 * 60 * 60;

function field(response: unknown, name: string): string | undefined {
  const value = response !== null && typeof response === 'object' ? (response as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : undefined;
}

export const actions: Required<Pick<EngineHost['actions'], PageActionName>> = {
  /** ACCOUNT_MOVED: sign out everywhere before leaving for the new server (SPEC §4). */
  logoutAllSessions: async () => {
    await callOperation('logout', { sessions: 'all' });
  },
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
