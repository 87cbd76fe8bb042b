import useSWR from 'swr';
import { useSession } from '../session/useSession';
import { fetchErrorReportingState } from './errorReportingState';

/** Whether error reporting is on for the signed-in user (undefined while unknown). */
export function useErrorReportingState(): boolean | undefined {
  const { session } = useSession();
  const { data } = useSWR(
    session ? ['platform.errorReportingState', session.userType] : null,
    ([, userType]: [string, string]) => fetchErrorReportingState(userType),
    { revalidateOnFocus: false },
  );
  return data;
}
