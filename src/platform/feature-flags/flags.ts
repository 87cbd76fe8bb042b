/**
 * Feature flags come from the session's features list (SPEC §6). Known flags are typed; the list
 * may hold others, which isFeatureEnabled also answers for.
 */
export const FEATURE_FLAGS = ['helpCenter', 'ticketTimers', 'ticketStatusesV2', 'governmentCloud', 'moviesFolderLabel'] as const;
export type FeatureFlag = (typeof FEATURE_FLAGS)[number];
export type FeatureFlags = Readonly<Record<FeatureFlag, boolean>>;

export function isFeatureEnabled(features: readonly string[] | null | undefined, flag: FeatureFlag | string): boolean {
  return Array.isArray(features) && features.includes(flag);
}

/** Every known flag, true when the features list names it. */
export function featureFlags(features: readonly string[] | null | undefined): FeatureFlags {
  return Object.freeze(Object.fromEntries(FEATURE_FLAGS.map((flag) => [flag, isFeatureEnabled(features, flag)])) as Record<FeatureFlag, boolean>);
}
