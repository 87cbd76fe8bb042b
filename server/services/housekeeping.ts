/** Deletes expired rows (sessions, tokens, challenges, codes, ended counter windows). Run at start and hourly. */
import type { Db } from '../db/index.js';

const EXPIRING_TABLES = ['sessions', 'login_tokens', 'mfa_challenges', 'verification_codes', 'expired_trial_sessions', 'used_tokens', 'counters'] as const;
/** Keep expired rows this long (so "expired" can still be told apart from "unknown"). */
export const EXPIRED_GRACE_MS = 7 * 24 * 60 * 60 * 1000;

export function purgeExpired(db: Db, now: number): number {
  let n = 0;
  for (const t of EXPIRING_TABLES) n += db.prepare(`DELETE FROM ${t} WHERE expires_at < ?`).run(now - EXPIRED_GRACE_MS).changes;
  return n;
}
