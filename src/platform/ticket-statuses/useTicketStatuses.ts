import { useEffect, useSyncExternalStore } from 'react';
import { useFeatureFlag } from '../feature-flags/useFeatureFlag';
import { useSession } from '../session/useSession';
import { fetchTicketStatuses, ticketStatusStore, type TicketStatusesState } from './ticketStatuses';

/** The stored ticket statuses; fetched once a session is there (call chosen by the ticketStatusesV2 flag). */
export function useTicketStatuses(): TicketStatusesState {
  const { session } = useSession();
  const useV2 = useFeatureFlag('ticketStatusesV2');
  const state = useSyncExternalStore(ticketStatusStore.subscribe, ticketStatusStore.get, ticketStatusStore.get);
  useEffect(() => {
    if (session && ticketStatusStore.get().status === 'idle') void fetchTicketStatuses(useV2);
  }, [session, useV2]);
  return state;
}
