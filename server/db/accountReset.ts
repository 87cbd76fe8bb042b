/**
 * An operator's resets of one account (`npm run admin -- reset-mfa`, `unlock`): its second factors and
 * what was waiting on them go, or its failure budgets (counters, services/limits.ts scopes) are cleared.
 * Each runs in the command's transaction.
 */
import type { Queryable } from './data.js';

export interface MfaRemoval {
  /** MFA methods removed. */
  methods: number;
  /** Sign-ins waiting for a code (login and set-up tokens) ended. */
  pendingSignIns: number;
}

/** Removes the account's MFA methods, their open challenges, its half-done sign-ins and its recovery codes. */
export async function removeSecondFactors(t: Queryable, userId: number, now: number): Promise<MfaRemoval> {
  const methods = (await t.run('DELETE FROM mfa_enrolments WHERE user_id = ?', [userId])).changes;
  await t.run('DELETE FROM mfa_challenges WHERE user_id = ?', [userId]);
  const pendingSignIns = (await t.run('DELETE FROM login_tokens WHERE user_id = ?', [userId])).changes;
  await t.run('DELETE FROM recovery_codes WHERE user_id = ?', [userId]);
  await t.run('UPDATE users SET updated_at = ? WHERE id = ?', [now, userId]);
  return { methods, pendingSignIns };
}

/** Deletes the counters of these scopes under exactly `key`; returns how many. */
export async function clearCounters(t: Queryable, scopes: readonly string[], key: string): Promise<number> {
  if (scopes.length === 0) return 0;
  const { changes } = await t.run(`DELETE FROM counters WHERE scope IN (${scopes.map(() => '?').join(', ')}) AND key = ?`, [...scopes, key]);
  return changes;
}

/** Deletes the counters of these scopes whose key starts with `prefix` (per-address and per-credential budgets); returns how many. */
export async function clearCountersByPrefix(t: Queryable, scopes: readonly string[], prefix: string): Promise<number> {
  if (scopes.length === 0) return 0;
  const { changes } = await t.run(`DELETE FROM counters WHERE scope IN (${scopes.map(() => '?').join(', ')}) AND substr(key, 1, CAST(? AS INTEGER)) = ?`, [
    ...scopes,
    [...prefix].length,
    prefix,
  ]);
  return changes;
}

/** The account's sessions may try Verify MFA again. */
export async function clearSessionMfaFailures(t: Queryable, userId: number): Promise<void> {
  await t.run('UPDATE sessions SET mfa_failures = 0 WHERE user_id = ?', [userId]);
}
