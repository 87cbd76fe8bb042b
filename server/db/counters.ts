/**
 * Fixed-window counters (table counters): every limit, budget and attempt count of the server, keyed
 * by a scope ('login', 'code', 'mail-address' …) and a key (an email, an account id, an address). Each
 * change is one atomic statement; a read-decide-write runs them in the caller's transaction
 * (services/limits.ts `Limits.atomically`).
 */
import type { Queryable } from './data.js';

export interface Counter {
  count: number;
  /** When the current window ends (ms). */
  resetAt: number;
}

const HIT = `INSERT INTO counters (scope, key, window_start, count, expires_at)
  VALUES (@scope, @key, @now, 1, CAST(@now AS BIGINT) + @win)
  ON CONFLICT (scope, key) DO UPDATE SET
    count = CASE WHEN counters.window_start + @win <= @now THEN 1 ELSE counters.count + 1 END,
    window_start = CASE WHEN counters.window_start + @win <= @now THEN @now ELSE counters.window_start END,
    expires_at = CASE WHEN counters.window_start + @win <= @now THEN CAST(@now AS BIGINT) + @win ELSE counters.window_start + @win END
  RETURNING count, window_start`;

/** Adds one to the window's count (a new window starts at 1). */
export async function hitCounter(q: Queryable, scope: string, key: string, windowMs: number, now: number): Promise<Counter> {
  const row = await q.get<{ count: number; window_start: number }>(HIT, { scope, key, now, win: windowMs });
  if (!row) throw new Error('counters upsert returned no row');
  return { count: row.count, resetAt: row.window_start + windowMs };
}

/** The count of the current window (0 when none, or when it ended). */
export async function peekCounter(q: Queryable, scope: string, key: string, windowMs: number, now: number): Promise<Counter> {
  const row = await q.get<{ count: number; window_start: number }>('SELECT count, window_start FROM counters WHERE scope = ? AND key = ?', [scope, key]);
  if (!row || row.window_start + windowMs <= now) return { count: 0, resetAt: now + windowMs };
  return { count: row.count, resetAt: row.window_start + windowMs };
}

/** Takes one back (a reserved try that was right). MAX(count - 1, 0) is SQLite only: the guard refuses it. */
export async function undoCounter(q: Queryable, scope: string, key: string): Promise<void> {
  await q.run('UPDATE counters SET count = CASE WHEN count > 0 THEN count - 1 ELSE 0 END WHERE scope = ? AND key = ?', [scope, key]);
}

/** Forgets the count (a success forgives the failures). */
export async function clearCounter(q: Queryable, scope: string, key: string): Promise<void> {
  await q.run('DELETE FROM counters WHERE scope = ? AND key = ?', [scope, key]);
}
