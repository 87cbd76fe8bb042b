/**
 * Verification codes (table verification_codes), stored as sha256: a reset link (RESET_PASSWORD, kept
 * sealed too, to be sent again while it lives), a texted reset code (RESET_SMS, hashed with its
 * account's id), and the set-password codes handed to a browser (SETUP_PASSWORD, INVITATION, and
 * RESET_PASSWORD after a texted code: bound to that browser). Each has its tries and is used once (a
 * conditional update). The rules are services/accountFlows.ts's and services/signIn.ts's.
 */
import type { Queryable } from './data.js';

export type CodePurpose = 'SETUP_PASSWORD' | 'RESET_PASSWORD' | 'RESET_SMS' | 'INVITATION';

export interface CodeRow {
  code_hash: string;
  user_id: number;
  purpose: CodePurpose;
  expires_at: number;
  used_at: number | null;
  /** sha256 of the nonce cookie of the browser it was handed to; null: it was emailed. */
  browser_hash: string | null;
}

export interface NewCode {
  codeHash: string;
  userId: number;
  purpose: CodePurpose;
  createdAt: number;
  expiresAt: number;
  browserHash?: string | null;
  /** The code sealed (AppContext.seal), for a link that is sent again while it lives. */
  sealedCode?: string | null;
}

const INSERT = 'INSERT INTO verification_codes (code_hash, user_id, purpose, created_at, expires_at, browser_hash, sealed_code) VALUES (?, ?, ?, ?, ?, ?, ?)';
const values = (c: NewCode) => [c.codeHash, c.userId, c.purpose, c.createdAt, c.expiresAt, c.browserHash ?? null, c.sealedCode ?? null];

export async function insertCode(q: Queryable, c: NewCode): Promise<void> {
  await q.run(INSERT, values(c));
}

/** insertCode, unless a code with this hash exists (short codes may collide): whether it was stored. */
export async function insertCodeUnlessTaken(q: Queryable, c: NewCode): Promise<boolean> {
  return (await q.run(`${INSERT} ON CONFLICT (code_hash) DO NOTHING`, values(c))).changes === 1;
}

export function findCode(q: Queryable, codeHash: string): Promise<CodeRow | undefined> {
  return q.get<CodeRow>('SELECT code_hash, user_id, purpose, expires_at, used_at, browser_hash FROM verification_codes WHERE code_hash = ?', [codeHash]);
}

/** The sealed secret of the account's live emailed reset link that lives past `leftUntil`, the longest-lived first. */
export async function liveSealedResetLink(q: Queryable, userId: number, leftUntil: number): Promise<string | undefined> {
  const row = await q.get<{ sealed_code: string }>(
    `SELECT sealed_code FROM verification_codes WHERE user_id = ? AND purpose = 'RESET_PASSWORD' AND used_at IS NULL AND sealed_code IS NOT NULL
    AND expires_at > ? ORDER BY expires_at DESC LIMIT 1`,
    [userId, leftUntil],
  );
  return row?.sealed_code;
}

/** The account's newest unused texted reset code. */
export function latestResetTextCode(q: Queryable, userId: number): Promise<Pick<CodeRow, 'code_hash' | 'expires_at' | 'browser_hash'> | undefined> {
  return q.get<Pick<CodeRow, 'code_hash' | 'expires_at' | 'browser_hash'>>(
    `SELECT code_hash, expires_at, browser_hash FROM verification_codes WHERE user_id = ? AND purpose = 'RESET_SMS' AND used_at IS NULL
    ORDER BY created_at DESC LIMIT 1`,
    [userId],
  );
}

/** Counts a try on an unused code: false when it has had `max` already (a conditional update). */
export async function countCodeTry(q: Queryable, codeHash: string, max: number): Promise<boolean> {
  return (
    (await q.run('UPDATE verification_codes SET attempts = attempts + 1 WHERE code_hash = ? AND attempts < ? AND used_at IS NULL', [codeHash, max])).changes ===
    1
  );
}

/** Ends a code that has had its `max` tries. */
export async function endTriedOutCode(q: Queryable, codeHash: string, max: number, now: number): Promise<void> {
  await q.run('UPDATE verification_codes SET used_at = ? WHERE code_hash = ? AND attempts >= ? AND used_at IS NULL', [now, codeHash, max]);
}

/** Uses a code: false when another request used it first (single use under concurrency). */
export async function useCode(q: Queryable, codeHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE verification_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [now, codeHash])).changes === 1;
}

/** Ends the account's open codes of these purposes. */
export async function voidCodes(q: Queryable, userId: number, purposes: readonly CodePurpose[], now: number): Promise<void> {
  await q.run(`UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL AND purpose IN (${purposes.map(() => '?').join(', ')})`, [
    now,
    userId,
    ...purposes,
  ]);
}

/** Ends the account's open codes of one purpose handed to a browser; `emailedToo`: the emailed ones as well. */
export async function voidHandedCodes(q: Queryable, userId: number, purpose: CodePurpose, emailedToo: boolean, now: number): Promise<void> {
  await q.run(
    'UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL AND (browser_hash IS NOT NULL OR CAST(? AS INTEGER) = 1)',
    [now, userId, purpose, emailedToo ? 1 : 0],
  );
}

/** Ends every open code of the account. */
export async function voidUserCodes(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run('UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
}
