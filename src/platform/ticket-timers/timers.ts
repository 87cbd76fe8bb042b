/**
 * Ticket timers kept in localStorage (SPEC §3). Pure functions over a Storage-like object.
 *
 * Key:   'ticket-{id}-timer' (every key of a ticket starts 'ticket-{id}-').
 * Value: {"ts": <written, epoch ms>, "ttl": <lifetime ms>, "value": {"timerSets": [{"start": ISO, "stop": ISO | null}]}}
 * An entry is expired when ts + ttl <= now (then it is removed). Sets whose start is not a valid date
 * are dropped; an entry left without valid sets is ignored. Anything unparsable is ignored, never thrown.
 */
export interface TimerSet {
  start: Date;
  /** null while the timer runs. */
  stop: Date | null;
}

export interface TicketTimer {
  ticketId: string;
  timerSets: TimerSet[];
  /** When the entry was written (epoch ms). */
  ts: number;
  /** Lifetime after ts (ms). */
  ttl: number;
}

export type TimerStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem' | 'key' | 'length'>;

export const TICKET_KEY_PREFIX = 'ticket-';
/** Default lifetime of a timer entry: 7 days after its last change. */
export const DEFAULT_TIMER_TTL_MS = 7 * 24 * 60 * 60 * 1000;
const TIMER_KEY = /^ticket-([A-Za-z0-9_]{1,64})-timer$/;
const TICKET_ID = /^[A-Za-z0-9_]{1,64}$/;

export function isTicketId(id: unknown): id is string | number {
  return (typeof id === 'string' || (typeof id === 'number' && Number.isInteger(id))) && TICKET_ID.test(String(id));
}

/** 'ticket-{id}-' : the prefix of every stored key of a ticket. */
export function ticketKeyPrefix(id: string | number): string {
  return `${TICKET_KEY_PREFIX}${id}-`;
}

export function timerKey(id: string | number): string {
  if (!isTicketId(id)) throw new RangeError(`Invalid ticket id "${String(id)}"`);
  return `${ticketKeyPrefix(id)}timer`;
}

function toDate(value: unknown): Date | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}

/** Valid sets of an untrusted list: invalid starts dropped; an invalid stop reads as null (running). */
export function parseTimerSets(raw: unknown): TimerSet[] {
  if (!Array.isArray(raw)) return [];
  const sets: TimerSet[] = [];
  for (const item of raw) {
    if (typeof item !== 'object' || item === null) continue;
    const start = toDate((item as { start?: unknown }).start);
    if (!start) continue;
    const rawStop = (item as { stop?: unknown }).stop;
    const stop = rawStop === null || rawStop === undefined ? null : toDate(rawStop);
    sets.push({ start, stop });
  }
  return sets;
}

export function isExpired(entry: { ts: number; ttl: number }, now: number): boolean {
  return entry.ts + entry.ttl <= now;
}

/** A stored entry, parsed; null when missing, unparsable, expired or without valid sets. */
export function parseTimerEntry(ticketId: string, raw: string | null, now: number): TicketTimer | null {
  if (raw === null) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof data !== 'object' || data === null) return null;
  const { ts, ttl, value } = data as { ts?: unknown; ttl?: unknown; value?: unknown };
  if (typeof ts !== 'number' || typeof ttl !== 'number' || !Number.isFinite(ts) || !Number.isFinite(ttl)) return null;
  if (isExpired({ ts, ttl }, now)) return null;
  const timerSets = parseTimerSets((value as { timerSets?: unknown } | null)?.timerSets);
  if (timerSets.length === 0) return null;
  return { ticketId, timerSets, ts, ttl };
}

function safe<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** The timer of one ticket; an expired entry is removed. */
export function readTimer(storage: TimerStorage, id: string | number, now: number = Date.now()): TicketTimer | null {
  const key = timerKey(id);
  const raw = safe(() => storage.getItem(key), null);
  const timer = parseTimerEntry(String(id), raw, now);
  if (!timer && raw !== null && isExpiredRaw(raw, now)) safe(() => storage.removeItem(key), undefined);
  return timer;
}

function isExpiredRaw(raw: string, now: number): boolean {
  const data = safe(() => JSON.parse(raw) as { ts?: unknown; ttl?: unknown }, null);
  return typeof data?.ts === 'number' && typeof data.ttl === 'number' && isExpired({ ts: data.ts, ttl: data.ttl }, now);
}

/** Every valid timer in storage, by ticket id; expired entries are removed. */
export function readAllTimers(storage: TimerStorage, now: number = Date.now()): TicketTimer[] {
  const keys: string[] = [];
  const length = safe(() => storage.length, 0);
  for (let i = 0; i < length; i += 1) {
    const key = safe(() => storage.key(i), null);
    if (key && TIMER_KEY.test(key)) keys.push(key);
  }
  const timers: TicketTimer[] = [];
  for (const key of keys) {
    const id = TIMER_KEY.exec(key)?.[1] ?? '';
    const timer = readTimer(storage, id, now);
    if (timer) timers.push(timer);
  }
  return timers.sort((a, b) => a.ticketId.localeCompare(b.ticketId, undefined, { numeric: true }));
}

export function serializeTimer(timerSets: readonly TimerSet[], now: number, ttl: number): string {
  return JSON.stringify({
    ts: now,
    ttl,
    value: { timerSets: timerSets.map((set) => ({ start: set.start.toISOString(), stop: set.stop ? set.stop.toISOString() : null })) },
  });
}

/** Stores the sets (fresh ts); false when storage refused (quota, disabled). No sets: the entry is removed. */
export function writeTimer(
  storage: TimerStorage,
  id: string | number,
  timerSets: readonly TimerSet[],
  now: number = Date.now(),
  ttl: number = DEFAULT_TIMER_TTL_MS,
): boolean {
  const key = timerKey(id);
  if (timerSets.length === 0)
    return safe(() => {
      storage.removeItem(key);
      return true;
    }, false);
  return safe(() => {
    storage.setItem(key, serializeTimer(timerSets, now, ttl));
    return true;
  }, false);
}

export function isRunning(timerSets: readonly TimerSet[]): boolean {
  return timerSets.some((set) => set.stop === null);
}

/** Starts a new set unless one is running. Returns the new sets. */
export function startTimer(storage: TimerStorage, id: string | number, now: number = Date.now(), ttl?: number): TimerSet[] {
  const sets = readTimer(storage, id, now)?.timerSets ?? [];
  if (isRunning(sets)) return sets;
  const next = [...sets, { start: new Date(now), stop: null }];
  writeTimer(storage, id, next, now, ttl);
  return next;
}

/** Stops every running set. Returns the new sets. */
export function stopTimer(storage: TimerStorage, id: string | number, now: number = Date.now(), ttl?: number): TimerSet[] {
  const sets = readTimer(storage, id, now)?.timerSets ?? [];
  const next = sets.map((set) => (set.stop === null ? { start: set.start, stop: new Date(Math.max(now, set.start.getTime())) } : set));
  if (sets.length > 0) writeTimer(storage, id, next, now, ttl);
  return next;
}

/** Removes every stored key of the ticket ('ticket-{id}-*'). */
export function clearTicket(storage: TimerStorage, id: string | number): void {
  const prefix = ticketKeyPrefix(id);
  const keys: string[] = [];
  const length = safe(() => storage.length, 0);
  for (let i = 0; i < length; i += 1) {
    const key = safe(() => storage.key(i), null);
    if (key?.startsWith(prefix)) keys.push(key);
  }
  for (const key of keys) safe(() => storage.removeItem(key), undefined);
}

/** Total time of the sets; a running set counts up to now. */
export function elapsedMs(timerSets: readonly TimerSet[], now: number = Date.now()): number {
  return timerSets.reduce((sum, set) => sum + Math.max(0, (set.stop ? set.stop.getTime() : now) - set.start.getTime()), 0);
}

/** h:mm:ss */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}
