/**
 * Names of the actions outcomes may list; a host implements them (src/engine/host.ts). The page's
 * actions the app implements (src/app/actions.ts); the Verify MFA modal's its own host (src/mfa).
 */
export const PAGE_ACTION_NAMES = ['logoutAllSessions', 'storeExpiredTrialSession', 'clearExpiredTrialSession'] as const;
export const MODAL_ACTION_NAMES = ['mfaVerified', 'mfaSessionExpired'] as const;
export const ACTION_NAMES = [...PAGE_ACTION_NAMES, ...MODAL_ACTION_NAMES] as const;
export type ActionName = (typeof ACTION_NAMES)[number];
export type PageActionName = (typeof PAGE_ACTION_NAMES)[number];
