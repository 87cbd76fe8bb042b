/**
 * Second-factor challenges (table mfa_challenges): an SMS or Duo code (sha256), a WebAuthn challenge
 * of a security key, a Duo channel (db/duo.ts). Each lives under a login or set-up token
 * (login_token_hash), or under the account's session when login_token_hash is NULL (the Verify MFA
 * modal), and is spent once (used_at, a conditional update).
 */
import type { MfaType } from '../../src/generated/api-types.js';
import type { Queryable } from './data.js';

export interface ChallengeRow {
  id: number;
  type: string;
  code_hash: string | null;
  /** The phone an SMS code was sent to. */
  phone: string | null;
  channel_id: string | null;
  /** A WebAuthn challenge (base64url). */
  challenge: string | null;
  attempts: number;
  expires_at: number;
  used_at: number | null;
}

export interface NewChallenge {
  /** The token it belongs to, or null: the account's session (the Verify MFA modal). */
  loginTokenHash: string | null;
  userId: number;
  type: MfaType;
  codeHash?: string | null;
  channelId?: string | null;
  challenge?: string | null;
  phone?: string | null;
  createdAt: number;
  expiresAt: number;
}

export async function insertChallenge(q: Queryable, c: NewChallenge): Promise<void> {
  await q.run(
    `INSERT INTO mfa_challenges (login_token_hash, user_id, type, code_hash, channel_id, challenge, phone, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [c.loginTokenHash, c.userId, c.type, c.codeHash ?? null, c.channelId ?? null, c.challenge ?? null, c.phone ?? null, c.createdAt, c.expiresAt],
  );
}

/** The newest open challenge of a type under a token. */
export function openChallenge(q: Queryable, tokenHash: string, type: MfaType, now: number): Promise<ChallengeRow | undefined> {
  return q.get<ChallengeRow>(
    `SELECT * FROM mfa_challenges WHERE login_token_hash = ? AND type = ? AND used_at IS NULL AND expires_at > ?
    ORDER BY id DESC LIMIT 1`,
    [tokenHash, type, now],
  );
}

/** The open challenges of a type under a token that carry a code (SMS, Duo). */
export function openCodeChallenges(q: Queryable, tokenHash: string, type: MfaType, now: number): Promise<ChallengeRow[]> {
  return q.all<ChallengeRow>(
    'SELECT * FROM mfa_challenges WHERE login_token_hash = ? AND type = ? AND used_at IS NULL AND expires_at > ? AND code_hash IS NOT NULL',
    [tokenHash, type, now],
  );
}

/** The newest open challenge of a type under the account's session (no token). */
export function openSessionChallenge(q: Queryable, userId: number, type: MfaType, now: number): Promise<ChallengeRow | undefined> {
  return q.get<ChallengeRow>(
    `SELECT * FROM mfa_challenges WHERE login_token_hash IS NULL AND user_id = ? AND type = ? AND used_at IS NULL AND expires_at > ?
    ORDER BY id DESC LIMIT 1`,
    [userId, type, now],
  );
}

/** The open registration challenge of a security key under a set-up token, found by its registration token's hash. */
export function openKeyRegistration(
  q: Queryable,
  tokenHash: string,
  registrationHash: string,
  now: number,
): Promise<{ id: number; challenge: string } | undefined> {
  return q.get<{ id: number; challenge: string }>(
    `SELECT id, challenge FROM mfa_challenges WHERE login_token_hash = ? AND type = 'U2F_TOKEN' AND code_hash = ?
      AND used_at IS NULL AND expires_at > ?`,
    [tokenHash, registrationHash, now],
  );
}

/** Spends a challenge: true for exactly one of any number of concurrent requests. */
export async function spendChallenge(q: Queryable, id: number, now: number): Promise<boolean> {
  return (await q.run('UPDATE mfa_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL', [now, id])).changes === 1;
}

/** Counts a wrong code on a challenge; the `max`th spends it. */
export async function countWrongChallengeCode(q: Queryable, id: number, max: number, now: number): Promise<void> {
  await q.run('UPDATE mfa_challenges SET attempts = attempts + 1, used_at = CASE WHEN attempts + 1 >= ? THEN ? ELSE used_at END WHERE id = ?', [max, now, id]);
}

/** Ends the open SMS codes of one owner: a token (loginTokenHash), or the account's session (null). */
export async function voidSmsChallenges(q: Queryable, userId: number, loginTokenHash: string | null, now: number): Promise<void> {
  await q.run(
    `UPDATE mfa_challenges SET used_at = ? WHERE type = 'SMSOTP' AND used_at IS NULL AND user_id = ?
    AND (login_token_hash = ? OR (login_token_hash IS NULL AND CAST(? AS TEXT) IS NULL))`,
    [now, userId, loginTokenHash, loginTokenHash],
  );
}

/** Ends every open challenge of the account. */
export async function voidUserChallenges(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run('UPDATE mfa_challenges SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
}
