/** Names of the actions outcomes may list; src/engine/actions.ts implements each one. */
export const ACTION_NAMES = ['logoutAllSessions', 'storeExpiredTrialSession', 'clearExpiredTrialSession'] as const;
export type ActionName = (typeof ACTION_NAMES)[number];
