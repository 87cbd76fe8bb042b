/**
 * The tables whose rows carry an `expires_at` and are deleted some time after it (hourly housekeeping,
 * services/housekeeping.ts): sessions, tokens, challenges, codes, counter windows, Duo streams, grants.
 */
import type { Queryable } from './data.js';

export const EXPIRING_TABLES = [
  'sessions',
  'login_tokens',
  'mfa_challenges',
  'verification_codes',
  'expired_trial_sessions',
  'used_tokens',
  'counters',
  'duo_streams',
  'recovery_code_grants',
  'passkey_review_grants',
  'trusted_devices',
] as const;

/** Deletes the rows of every expiring table that expired before `before`; returns how many. */
export async function purgeExpiredRows(q: Queryable, before: number): Promise<number> {
  let n = 0;
  for (const table of EXPIRING_TABLES) n += (await q.run(`DELETE FROM ${table} WHERE expires_at < ?`, [before])).changes;
  return n;
}
