/** Consecutive failed sign-ins per email; at BOT_CHECK_AFTER_FAILURES the bot check is demanded. */
import type { Db } from '../db/index.js';

export const BOT_CHECK_AFTER_FAILURES = 3;

export interface Attempts {
  failures(email: string): number;
  /** Records a failure, returns the new count. */
  fail(email: string): number;
  reset(email: string): void;
}

export function createAttempts(db: Db, now: () => number): Attempts {
  return {
    failures(email) {
      const row = db.prepare('SELECT failures FROM login_failures WHERE email = ?').get(email) as { failures: number } | undefined;
      return row?.failures ?? 0;
    },
    fail(email) {
      const row = db.prepare(`INSERT INTO login_failures (email, failures, last_failed_at) VALUES (?, 1, ?)
        ON CONFLICT(email) DO UPDATE SET failures = failures + 1, last_failed_at = excluded.last_failed_at RETURNING failures`).get(email, now()) as { failures: number };
      return row.failures;
    },
    reset(email) {
      db.prepare('DELETE FROM login_failures WHERE email = ?').run(email);
    },
  };
}
