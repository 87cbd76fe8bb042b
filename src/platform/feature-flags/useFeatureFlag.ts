import { useSession } from '../session/useSession';
import { featureFlags, isFeatureEnabled, type FeatureFlag, type FeatureFlags } from './flags';

/** Whether a flag is on for the signed-in session (false while loading or signed out). */
export function useFeatureFlag(flag: FeatureFlag): boolean {
  const { session } = useSession();
  return isFeatureEnabled(session?.features, flag);
}

/** All known flags of the signed-in session. */
export function useFeatureFlags(): FeatureFlags {
  const { session } = useSession();
  return featureFlags(session?.features);
}
