import { place } from '../host/place';

/** The expired-trial session key (SPEC §4), kept in a cookie by the storeExpiredTrialSession action. */
export const EXPIRED_TRIAL_COOKIE = 'expiredTrialSessionKey';

export function readCookie(name: string): string | undefined {
  // The page's cookies, or those the build's prerendering renders for (./place.ts).
  for (const part of place().cookie.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return decodeURIComponent(rest.join('='));
  }
  return undefined;
}
