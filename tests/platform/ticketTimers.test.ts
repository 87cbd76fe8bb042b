import { describe, expect, it } from 'vitest';
import {
  clearTicket,
  DEFAULT_TIMER_TTL_MS,
  elapsedMs,
  formatElapsed,
  isRunning,
  isTicketId,
  parseTimerEntry,
  parseTimerSets,
  readAllTimers,
  readTimer,
  serializeTimer,
  startTimer,
  stopTimer,
  ticketKeyPrefix,
  timerKey,
  writeTimer,
} from '../../src/platform';
import { MemoryStorage } from './helpers';

const T0 = Date.UTC(2026, 0, 1, 9, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();
const entry = (timerSets: unknown, ts = T0, ttl = DEFAULT_TIMER_TTL_MS) => JSON.stringify({ ts, ttl, value: { timerSets } });

describe('keys', () => {
  it("are prefixed 'ticket-{id}-'", () => {
    expect(ticketKeyPrefix(42)).toBe('ticket-42-');
    expect(timerKey(42)).toBe('ticket-42-timer');
    expect(timerKey('A_1')).toBe('ticket-A_1-timer');
    expect(() => timerKey('1-2')).toThrow(RangeError);
    expect(() => timerKey('')).toThrow(RangeError);
    expect(isTicketId(1.5)).toBe(false);
    expect(isTicketId('x'.repeat(65))).toBe(false);
  });
});

describe('parseTimerSets', () => {
  it('drops sets with invalid start dates; stop may be null', () => {
    const sets = parseTimerSets([
      { start: iso(T0), stop: iso(T0 + 1000) },
      { start: 'not a date', stop: null },
      { start: null, stop: null },
      { stop: iso(T0) },
      'junk',
      null,
      { start: iso(T0 + 5000), stop: null },
      { start: iso(T0 + 9000), stop: 'garbage' },
    ]);
    expect(sets).toEqual([
      { start: new Date(T0), stop: new Date(T0 + 1000) },
      { start: new Date(T0 + 5000), stop: null },
      { start: new Date(T0 + 9000), stop: null },
    ]);
    expect(parseTimerSets('x')).toEqual([]);
    expect(parseTimerSets(undefined)).toEqual([]);
  });
});

describe('parseTimerEntry', () => {
  it('reads ts, ttl and the sets', () => {
    expect(parseTimerEntry('1', entry([{ start: iso(T0), stop: null }]), T0)).toEqual({
      ticketId: '1',
      ts: T0,
      ttl: DEFAULT_TIMER_TTL_MS,
      timerSets: [{ start: new Date(T0), stop: null }],
    });
  });
  it('ignores entries with no valid sets, unparsable ones and ones without ts/ttl', () => {
    expect(parseTimerEntry('1', entry([{ start: 'bad', stop: null }]), T0)).toBeNull();
    expect(parseTimerEntry('1', entry([]), T0)).toBeNull();
    expect(parseTimerEntry('1', '{', T0)).toBeNull();
    expect(parseTimerEntry('1', 'null', T0)).toBeNull();
    expect(parseTimerEntry('1', JSON.stringify({ value: { timerSets: [{ start: iso(T0) }] } }), T0)).toBeNull();
    expect(parseTimerEntry('1', null, T0)).toBeNull();
  });
  it('expires at ts + ttl', () => {
    const raw = entry([{ start: iso(T0), stop: null }], T0, 1000);
    expect(parseTimerEntry('1', raw, T0 + 999)).not.toBeNull();
    expect(parseTimerEntry('1', raw, T0 + 1000)).toBeNull();
  });
});

describe('storage', () => {
  it('start, stop, resume: sets accumulate and survive a re-read (reload)', () => {
    const storage = new MemoryStorage();
    expect(startTimer(storage, 7, T0)).toEqual([{ start: new Date(T0), stop: null }]);
    expect(startTimer(storage, 7, T0 + 500)).toHaveLength(1); // already running
    stopTimer(storage, 7, T0 + 60_000);
    startTimer(storage, 7, T0 + 120_000);
    const timer = readTimer(new MemoryStorageView(storage), 7, T0 + 180_000)!;
    expect(timer.timerSets).toEqual([
      { start: new Date(T0), stop: new Date(T0 + 60_000) },
      { start: new Date(T0 + 120_000), stop: null },
    ]);
    expect(isRunning(timer.timerSets)).toBe(true);
    expect(elapsedMs(timer.timerSets, T0 + 180_000)).toBe(120_000);
    expect(storage.keys()).toEqual(['ticket-7-timer']);
    expect(JSON.parse(storage.getItem('ticket-7-timer')!)).toMatchObject({ ts: T0 + 120_000, ttl: DEFAULT_TIMER_TTL_MS });
  });
  it('stop on an unknown ticket does nothing', () => {
    const storage = new MemoryStorage();
    expect(stopTimer(storage, 9, T0)).toEqual([]);
    expect(storage.length).toBe(0);
  });
  it('readAllTimers: only ticket timer keys, invalid ones ignored, expired ones removed, sorted by id', () => {
    const storage = new MemoryStorage();
    storage.setItem('ticket-10-timer', entry([{ start: iso(T0), stop: iso(T0 + 1) }]));
    storage.setItem('ticket-2-timer', entry([{ start: iso(T0), stop: null }]));
    storage.setItem('ticket-3-timer', entry([{ start: 'nope', stop: null }]));
    storage.setItem('ticket-4-timer', entry([{ start: iso(T0), stop: null }], T0 - DEFAULT_TIMER_TTL_MS - 1));
    storage.setItem('ticket-5-notes', 'hello');
    storage.setItem('other', entry([{ start: iso(T0), stop: null }]));
    const timers = readAllTimers(storage, T0);
    expect(timers.map((t) => t.ticketId)).toEqual(['2', '10']);
    expect(storage.getItem('ticket-4-timer')).toBeNull();
    expect(storage.getItem('ticket-3-timer')).not.toBeNull();
  });
  it('writeTimer with no sets removes; refused writes answer false', () => {
    const storage = new MemoryStorage();
    expect(writeTimer(storage, 1, [{ start: new Date(T0), stop: null }], T0)).toBe(true);
    expect(writeTimer(storage, 1, [], T0)).toBe(true);
    expect(storage.length).toBe(0);
    storage.refuseWrites = true;
    expect(writeTimer(storage, 1, [{ start: new Date(T0), stop: null }], T0)).toBe(false);
    expect(() => startTimer(storage, 1, T0)).not.toThrow();
  });
  it('clearTicket removes every key of the ticket only', () => {
    const storage = new MemoryStorage();
    storage.setItem('ticket-1-timer', 'x');
    storage.setItem('ticket-1-notes', 'y');
    storage.setItem('ticket-11-timer', 'z');
    clearTicket(storage, 1);
    expect(storage.keys()).toEqual(['ticket-11-timer']);
  });
  it('serializeTimer writes ISO dates and null stops', () => {
    expect(JSON.parse(serializeTimer([{ start: new Date(T0), stop: null }], T0, 5))).toEqual({
      ts: T0,
      ttl: 5,
      value: { timerSets: [{ start: iso(T0), stop: null }] },
    });
  });
  it('a throwing storage never crashes a read', () => {
    const broken = {
      get length(): number {
        throw new Error('x');
      },
      key: () => {
        throw new Error('x');
      },
      getItem: () => {
        throw new Error('x');
      },
      setItem: () => {
        throw new Error('x');
      },
      removeItem: () => {
        throw new Error('x');
      },
    };
    expect(readAllTimers(broken, T0)).toEqual([]);
    expect(readTimer(broken, 1, T0)).toBeNull();
  });
});

describe('elapsed', () => {
  it('sums sets, a running one up to now, and formats h:mm:ss', () => {
    expect(
      elapsedMs(
        [
          { start: new Date(T0), stop: new Date(T0 + 1500) },
          { start: new Date(T0 + 2000), stop: null },
        ],
        T0 + 3000,
      ),
    ).toBe(2500);
    expect(formatElapsed(0)).toBe('0:00:00');
    expect(formatElapsed(3_723_000)).toBe('1:02:03');
    expect(formatElapsed(-5)).toBe('0:00:00');
  });
});

/** A second Storage object over the same data: what a reloaded page sees. */
class MemoryStorageView extends MemoryStorage {
  constructor(source: MemoryStorage) {
    super();
    for (const key of source.keys()) this.setItem(key, source.getItem(key)!);
  }
}
