/**
 * Recovery codes (table recovery_codes: 10 per account, each an HMAC of the code, used once) and the
 * grants to be shown a new set (recovery_code_grants: bound to a browser, short-lived, spent once).
 * The rules are services/recoveryCodes.ts's.
 */
import type { Queryable } from './data.js';

/** Unused codes of the account. */
export async function countUnusedRecoveryCodes(q: Queryable, userId: number): Promise<number> {
  return (await q.get<{ n: number }>('SELECT count(*) AS n FROM recovery_codes WHERE user_id = ? AND used_at IS NULL', [userId]))?.n ?? 0;
}

/** Uses the account's unused code with this hash: true for exactly one of concurrent requests. */
export async function useRecoveryCode(q: Queryable, userId: number, codeHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE recovery_codes SET used_at = ? WHERE user_id = ? AND code_hash = ? AND used_at IS NULL', [now, userId, codeHash])).changes === 1;
}

/** Replaces the account's codes with a new set (hashes); whether it had unused ones (they no longer work). */
export async function replaceRecoveryCodes(q: Queryable, userId: number, codeHashes: readonly string[], now: number): Promise<boolean> {
  const replaced = (await q.run('DELETE FROM recovery_codes WHERE user_id = ? AND used_at IS NULL', [userId])).changes > 0;
  await q.run('DELETE FROM recovery_codes WHERE user_id = ?', [userId]);
  for (const hash of codeHashes) await q.run('INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)', [userId, hash, now]);
  return replaced;
}

export async function insertRecoveryGrant(q: Queryable, grant: { userId: number; browserHash: string; createdAt: number; expiresAt: number }): Promise<void> {
  await q.run('INSERT INTO recovery_code_grants (user_id, browser_hash, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    grant.userId,
    grant.browserHash,
    grant.createdAt,
    grant.expiresAt,
  ]);
}

/** Spends this browser's newest open grant for the account: false when it has none (or another request spent it first). */
export async function spendRecoveryGrant(q: Queryable, userId: number, browserHash: string, now: number): Promise<boolean> {
  const grant = await q.get<{ id: number }>(
    'SELECT id FROM recovery_code_grants WHERE user_id = ? AND browser_hash = ? AND used_at IS NULL AND expires_at > ? ORDER BY id DESC LIMIT 1',
    [userId, browserHash, now],
  );
  return grant !== undefined && (await q.run('UPDATE recovery_code_grants SET used_at = ? WHERE id = ? AND used_at IS NULL', [now, grant.id])).changes === 1;
}
