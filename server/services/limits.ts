/**
 * Limits that every instance sees: fixed-window counters in the database (table counters), each updated
 * by one atomic statement, and read-then-write decisions (the sign-in gate) in one serializable
 * transaction. The numbers of the whole server are here, in one place; docs/security.md quotes them and
 * tests/security checks the quote.
 */
import type { Database, Queryable } from '../db/data.js';

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export const LIMITS = {
  /** Failed sign-ins of one account (any address) from which the bot check is demanded. */
  botCheckAfterFailures: 3,
  /** Failed sign-ins per account per hour (ASVS 2.2.1: at most 100); then 429 until the window ends. */
  accountFailuresPerHour: 100,
  /** Failed sign-ins per (account, address) per hour: one address cannot spend the account's whole budget. */
  accountAddressFailuresPerHour: 20,
  /** Wrong codes per code (text-reset code, login/setup token, SMS challenge, Verify MFA modal session). */
  triesPerCode: 5,
  /** Wrong codes per account per hour, across all its codes (MFA at sign-in and setup, the modal, text reset). */
  codeFailuresPerAccountPerHour: 20,
  /** Unknown codes (activation keys, invitations, reset links) per address per hour. */
  unknownCodesPerAddressPerHour: 50,
  /** Wrong text-reset codes per account per hour: their own budget, apart from the sign-in codes (a reset by email clears it). */
  resetCodeFailuresPerAccountPerHour: 20,
  /** Texts per phone number and per account in 15 minutes. */
  textsPerPhonePer15Min: 5,
  textsPerAccountPer15Min: 5,
  /** Emails a visitor can make the server send (reset links, activation emails) per recipient address and per account per hour. */
  mailsPerAddressPerHour: 5,
  mailsPerAccountPerHour: 5,
  /** Mail-sending requests (register, request-activation-email, reset-password-init) from one address per hour before the bot check is demanded for them. */
  mailRequestsPerAddressBeforeBotCheck: 5,
  /** Mail-sending requests per minute from all addresses together before the bot check is demanded for everyone (a distributed flood). */
  mailRequestsPerMinuteBeforeBotCheck: 30,
  /** Open Duo event streams per channel and per address (all instances together). */
  duoStreamsPerChannel: 3,
  duoStreamsPerAddress: 20,
  /** Calls of the sign-in endpoints per address per minute, all routes together. */
  callsPerAddressPerMinute: 300,
  /** Refused passkey sign-ins (bad, replayed or unknown assertions) per address per hour; then 429 until the window ends. */
  passkeyFailuresPerAddressPerHour: 30,
  window: { failures: HOUR, codes: HOUR, texts: 15 * MINUTE, mails: HOUR, calls: MINUTE },
} as const;

export interface Counter {
  count: number;
  /** When the current window ends (ms). */
  resetAt: number;
}

/**
 * Each call takes the Queryable to run on: `ctx.data` alone, or the `t` of a caller's transaction
 * (docs/data-layer.md, repository shape).
 */
export interface Limits {
  /** Adds one and returns the new count of the window (a new window starts at 1). */
  hit(q: Queryable, scope: string, key: string, windowMs: number): Promise<Counter>;
  /** The count of the current window (0 when none or ended). */
  peek(q: Queryable, scope: string, key: string, windowMs: number): Promise<Counter>;
  /** Takes one back (a reserved attempt that turned out fine). */
  undo(q: Queryable, scope: string, key: string): Promise<void>;
  clear(q: Queryable, scope: string, key: string): Promise<void>;
  /** Read-decide-write in one serializable transaction (no race between instances); fn awaits only t's statements. */
  atomically<T>(fn: (t: Queryable) => Promise<T>): Promise<T>;
}

/** One statement: concurrent hits of one key each count (the row is created or updated atomically). */
const HIT = `INSERT INTO counters (scope, key, window_start, count, expires_at)
  VALUES (@scope, @key, @now, 1, CAST(@now AS BIGINT) + @win)
  ON CONFLICT (scope, key) DO UPDATE SET
    count = CASE WHEN counters.window_start + @win <= @now THEN 1 ELSE counters.count + 1 END,
    window_start = CASE WHEN counters.window_start + @win <= @now THEN @now ELSE counters.window_start END,
    expires_at = CASE WHEN counters.window_start + @win <= @now THEN CAST(@now AS BIGINT) + @win ELSE counters.window_start + @win END
  RETURNING count, window_start`;

interface CounterRow {
  count: number;
  window_start: number;
}

export function createLimits(data: Database, now: () => number): Limits {
  return {
    async hit(q, scope, key, windowMs) {
      const row = await q.get<CounterRow>(HIT, { scope, key, now: now(), win: windowMs });
      if (!row) throw new Error('counters upsert returned no row');
      return { count: row.count, resetAt: row.window_start + windowMs };
    },
    async peek(q, scope, key, windowMs) {
      const row = await q.get<CounterRow>('SELECT count, window_start FROM counters WHERE scope = ? AND key = ?', [scope, key]);
      const t = now();
      if (!row || row.window_start + windowMs <= t) return { count: 0, resetAt: t + windowMs };
      return { count: row.count, resetAt: row.window_start + windowMs };
    },
    async undo(q, scope, key) {
      await q.run('UPDATE counters SET count = CASE WHEN count > 0 THEN count - 1 ELSE 0 END WHERE scope = ? AND key = ?', [scope, key]);
    },
    async clear(q, scope, key) {
      await q.run('DELETE FROM counters WHERE scope = ? AND key = ?', [scope, key]);
    },
    atomically: (fn) => data.tx(fn),
  };
}

/** Seconds until a window ends, at least 1 (for Retry-After). */
export function retryAfterSeconds(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}
