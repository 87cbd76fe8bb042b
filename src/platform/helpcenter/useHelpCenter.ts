import { useCallback, useState } from 'react';
import useSWR from 'swr';
import { useFeatureFlag } from '../feature-flags/useFeatureFlag';
import { loadHelpCenterHosts, openHelpCenter, type HelpCenterHosts } from './sso';

export interface UseHelpCenter {
  hosts: HelpCenterHosts | undefined;
  /** Whether a host is configured for the user's cloud. */
  available: boolean;
  /** The text key of the last failure, if any. */
  errorKey: string | undefined;
  pending: boolean;
  /** Call from the click handler itself. */
  open(returnTo?: string): void;
}

export function useHelpCenter(): UseHelpCenter {
  const government = useFeatureFlag('governmentCloud');
  const { data: hosts } = useSWR('platform.helpCenterHosts', loadHelpCenterHosts, { revalidateOnFocus: false });
  const [errorKey, setErrorKey] = useState<string>();
  const [pending, setPending] = useState(false);
  const open = useCallback(
    (returnTo?: string) => {
      if (!hosts) return;
      setErrorKey(undefined);
      setPending(true);
      void openHelpCenter({ hosts, government, ...(returnTo !== undefined ? { returnTo } : {}) }).then((result) => {
        setPending(false);
        if (!result.ok) setErrorKey(result.errorKey);
      });
    },
    [hosts, government],
  );
  return { hosts, available: Boolean(hosts && (government ? hosts.governmentHost : hosts.host)), errorKey, pending, open };
}
