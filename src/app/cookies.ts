/** The expired-trial session key (SPEC §4), kept in a cookie by the storeExpiredTrialSession action. */
export const EXPIRED_TRIAL_COOKIE = 'expiredTrialSessionKey';

export function readCookie(name: string): string | undefined {
  // The build's prerendering has no document (and no visitor's cookies).
  if (typeof document === 'undefined') return undefined;
  for (const part of document.cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
