/**
 * Ticket status list (SPEC §7): fetched by one of two calls chosen by a flag (ticketStatusesV2),
 * stored as the ticket statuses; a failure gives the text key 'ticketing.errorFetchingStatusList'.
 */
import { callOperation } from '../../api/client';

export interface TicketStatus {
  id: number;
  name: string;
  category?: string;
}

export const TICKET_STATUSES_ERROR_KEY = 'ticketing.errorFetchingStatusList';

export type TicketStatusesState =
  { status: 'idle' } | { status: 'loaded'; statuses: readonly TicketStatus[] } | { status: 'error'; errorKey: typeof TICKET_STATUSES_ERROR_KEY; code: string };

/** The operation for the flag: ticketStatusesV2 when on, else ticketStatuses. */
export function ticketStatusesOperation(useV2: boolean): 'ticketStatuses' | 'ticketStatusesV2' {
  return useV2 ? 'ticketStatusesV2' : 'ticketStatuses';
}

export function parseTicketStatuses(data: unknown): TicketStatus[] | null {
  const list = (data as { statuses?: unknown } | null)?.statuses;
  if (!Array.isArray(list)) return null;
  return list.flatMap((item): TicketStatus[] => {
    const { id, name, category } = (item ?? {}) as Record<string, unknown>;
    if (typeof id !== 'number' || typeof name !== 'string') return [];
    return [{ id, name, ...(typeof category === 'string' ? { category } : {}) }];
  });
}

/* The store: one state, shared by every reader; subscribe for changes (useSyncExternalStore). */
let state: TicketStatusesState = { status: 'idle' };
const listeners = new Set<() => void>();

export const ticketStatusStore = {
  get: (): TicketStatusesState => state,
  set(next: TicketStatusesState): void {
    state = next;
    for (const listener of [...listeners]) listener();
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  reset(): void {
    ticketStatusStore.set({ status: 'idle' });
  },
};

/** Fetches with the call the flag picks and stores the result (or the error). */
export async function fetchTicketStatuses(useV2: boolean): Promise<TicketStatusesState> {
  const result = await callOperation(ticketStatusesOperation(useV2));
  const statuses = result.ok ? parseTicketStatuses(result.data) : null;
  const next: TicketStatusesState = statuses
    ? { status: 'loaded', statuses: Object.freeze(statuses) }
    : { status: 'error', errorKey: TICKET_STATUSES_ERROR_KEY, code: result.ok ? 'INVALID_RESPONSE' : result.code };
  ticketStatusStore.set(next);
  return next;
}
