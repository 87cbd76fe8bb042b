import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ERROR_FETCHING_SENTRY_STATE,
  errorReportingStateOperation,
  fetchErrorReportingState,
  fetchTicketStatuses,
  parseTicketStatuses,
  TICKET_STATUSES_ERROR_KEY,
  ticketStatusesOperation,
  ticketStatusStore,
} from '../../src/platform';
import { json, stubFetch } from './helpers';

const STATUSES = {
  statuses: [
    { id: 1000, name: 'New', category: 'OPEN' },
    { id: 5000, name: 'Resolved' },
  ],
};

afterEach(() => {
  vi.unstubAllGlobals();
  ticketStatusStore.reset();
});

describe('ticket statuses', () => {
  it('the flag chooses the call', async () => {
    expect(ticketStatusesOperation(false)).toBe('ticketStatuses');
    expect(ticketStatusesOperation(true)).toBe('ticketStatusesV2');
    let urls = stubFetch({ '/ws/ticketing/statuses': () => json(STATUSES), '/ws/ticketing/v2/statuses': () => json(STATUSES) });
    await fetchTicketStatuses(false);
    expect(urls).toEqual(['/ws/ticketing/statuses']);
    urls = stubFetch({ '/ws/ticketing/statuses': () => json(STATUSES), '/ws/ticketing/v2/statuses': () => json(STATUSES) });
    await fetchTicketStatuses(true);
    expect(urls).toEqual(['/ws/ticketing/v2/statuses']);
  });
  it('stores the result and tells subscribers', async () => {
    stubFetch({ '/ws/ticketing/statuses': () => json(STATUSES) });
    const listener = vi.fn();
    const unsubscribe = ticketStatusStore.subscribe(listener);
    expect(ticketStatusStore.get()).toEqual({ status: 'idle' });
    await fetchTicketStatuses(false);
    expect(ticketStatusStore.get()).toEqual({
      status: 'loaded',
      statuses: [
        { id: 1000, name: 'New', category: 'OPEN' },
        { id: 5000, name: 'Resolved' },
      ],
    });
    expect(listener).toHaveBeenCalledTimes(1);
    unsubscribe();
    ticketStatusStore.reset();
    expect(listener).toHaveBeenCalledTimes(1);
  });
  it("a failure stores 'ticketing.errorFetchingStatusList'", async () => {
    stubFetch({ '/ws/ticketing/statuses': () => json({ error: 'INTERNAL', message: 'x' }, 500) });
    expect(await fetchTicketStatuses(false)).toEqual({ status: 'error', errorKey: 'ticketing.errorFetchingStatusList', code: 'HTTP_500' });
    expect(TICKET_STATUSES_ERROR_KEY).toBe('ticketing.errorFetchingStatusList');
    stubFetch({ '/ws/ticketing/statuses': () => json({ nope: true }) });
    expect(await fetchTicketStatuses(false)).toMatchObject({ status: 'error', code: 'INVALID_RESPONSE' });
    expect(ticketStatusStore.get().status).toBe('error');
  });
  it('parseTicketStatuses keeps well-formed items only', () => {
    expect(parseTicketStatuses({ statuses: [{ id: 1, name: 'a' }, { id: '2', name: 'b' }, null, { id: 3 }] })).toEqual([{ id: 1, name: 'a' }]);
    expect(parseTicketStatuses({})).toBeNull();
    expect(parseTicketStatuses(null)).toBeNull();
  });
});

describe('error-reporting state', () => {
  it('one call for technicians, one for end users', async () => {
    expect(errorReportingStateOperation('TECHNICIAN')).toBe('errorReportingState');
    expect(errorReportingStateOperation(undefined)).toBe('errorReportingState');
    expect(errorReportingStateOperation('END_USER')).toBe('errorReportingStateEus');
    const urls = stubFetch({ '/ws/sentry/state': () => json({ enabled: true }), '/ws/eus/sentry/state': () => json({ enabled: false }) });
    expect(await fetchErrorReportingState('TECHNICIAN')).toBe(true);
    expect(await fetchErrorReportingState('END_USER')).toBe(false);
    expect(urls).toEqual(['/ws/sentry/state', '/ws/eus/sentry/state']);
  });
  it("a failure logs 'Error fetching Sentry state' and leaves reporting off", async () => {
    stubFetch({ '/ws/sentry/state': () => json({ error: 'INTERNAL', message: 'x' }, 500) });
    const log = vi.fn();
    expect(await fetchErrorReportingState('TECHNICIAN', log)).toBe(false);
    expect(ERROR_FETCHING_SENTRY_STATE).toBe('Error fetching Sentry state');
    expect(log).toHaveBeenCalledWith('Error fetching Sentry state', { operation: 'errorReportingState', code: 'HTTP_500', status: 500 });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('offline');
      }),
    );
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(await fetchErrorReportingState('END_USER')).toBe(false);
    expect(spy).toHaveBeenCalledWith('Error fetching Sentry state', expect.objectContaining({ code: 'NETWORK_ERROR' }));
    spy.mockRestore();
  });
});
