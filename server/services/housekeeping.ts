/**
 * Deletes expired rows (sessions, tokens, challenges, codes, ended counter windows, Duo stream rows)
 * and outbox messages older than OUTBOX_RETENTION_MS (they hold links and codes in clear). Run at
 * start and hourly.
 */
import type { Db } from '../db/index.js';

const EXPIRING_TABLES = [
  'sessions',
  'login_tokens',
  'mfa_challenges',
  'verification_codes',
  'expired_trial_sessions',
  'used_tokens',
  'counters',
  'duo_streams',
  'recovery_code_grants',
  'trusted_devices',
] as const;
/** Keep expired rows this long (so "expired" can still be told apart from "unknown"). */
export const EXPIRED_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** Outbox messages are kept a day: long enough to read a link (the longest lives 7 days, but a visitor asks again). */
export const OUTBOX_RETENTION_MS = 24 * 60 * 60 * 1000;

export function purgeExpired(db: Db, now: number): number {
  let n = 0;
  for (const t of EXPIRING_TABLES) n += db.prepare(`DELETE FROM ${t} WHERE expires_at < ?`).run(now - EXPIRED_GRACE_MS).changes;
  n += db.prepare('DELETE FROM outbox WHERE created_at < ?').run(now - OUTBOX_RETENTION_MS).changes;
  return n;
}
