/**
 * Cookie sessions (table sessions): the sha256 of the cookie's token, the account, the lifetimes
 * (absolute `expires_at`, idle from `last_seen_at`), the passkey it signed in with, and the wrong codes
 * of the Verify MFA modal counted against it. The rules are services/sessions.ts's.
 */
import type { UserRow } from './accounts.js';
import type { Queryable } from './data.js';

export interface NewSession {
  tokenHash: string;
  userId: number;
  persistent: boolean;
  createdAt: number;
  expiresAt: number;
  ip: string;
  userAgent: string;
  /** The passkey it signed in with (removing that passkey ends the session: db/passkeys.ts). */
  passkeyId: number | null;
}

export async function insertSession(q: Queryable, s: NewSession): Promise<void> {
  await q.run(
    `INSERT INTO sessions (token_hash, user_id, persistent, created_at, expires_at, last_seen_at, ip, user_agent, passkey_id)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [s.tokenHash, s.userId, s.persistent ? 1 : 0, s.createdAt, s.expiresAt, s.createdAt, s.ip, s.userAgent.slice(0, 300), s.passkeyId],
  );
}

/** A live session with its account's row. */
export type SessionUserRow = UserRow & { session_id: number; session_seen: number };

/**
 * The session of a cookie token's hash, with its account, when it is within its absolute lifetime and
 * was seen after the idle limit of its kind (`idleSince`: persistent ones, browser ones).
 */
export function liveSession(
  q: Queryable,
  tokenHash: string,
  now: number,
  idleSince: { persistent: number; browser: number },
): Promise<SessionUserRow | undefined> {
  return q.get<SessionUserRow>(
    `SELECT s.id AS session_id, s.last_seen_at AS session_seen, u.* FROM sessions s JOIN users u ON u.id = s.user_id
    WHERE s.token_hash = ? AND s.expires_at > ?
      AND s.last_seen_at > (CASE WHEN s.persistent = 1 THEN CAST(? AS BIGINT) ELSE CAST(? AS BIGINT) END)`,
    [tokenHash, now, idleSince.persistent, idleSince.browser],
  );
}

export async function touchSession(q: Queryable, sessionId: number, now: number): Promise<void> {
  await q.run('UPDATE sessions SET last_seen_at = ? WHERE id = ?', [now, sessionId]);
}

/** When the session started, or undefined when it is gone. */
export async function sessionCreatedAt(q: Queryable, sessionId: number): Promise<number | undefined> {
  return (await q.get<{ created_at: number }>('SELECT created_at FROM sessions WHERE id = ?', [sessionId]))?.created_at;
}

/** The passkey a session signed in with, if any. */
export async function sessionPasskey(q: Queryable, sessionId: number): Promise<number | null> {
  const row = await q.get<{ passkey_id: number | null }>('SELECT passkey_id FROM sessions WHERE id = ?', [sessionId]);
  return row?.passkey_id === null || row?.passkey_id === undefined ? null : Number(row.passkey_id);
}

export async function deleteSessionByToken(q: Queryable, tokenHash: string): Promise<void> {
  await q.run('DELETE FROM sessions WHERE token_hash = ?', [tokenHash]);
}

/** Ends every session of the account; how many. */
export async function deleteUserSessions(q: Queryable, userId: number): Promise<number> {
  return (await q.run('DELETE FROM sessions WHERE user_id = ?', [userId])).changes;
}

/** Counts a try of the Verify MFA modal on the session: false when it has had `max` already (a conditional update). */
export async function reserveSessionCodeTry(q: Queryable, sessionId: number, max: number): Promise<boolean> {
  return (await q.run('UPDATE sessions SET mfa_failures = mfa_failures + 1 WHERE id = ? AND mfa_failures < ?', [sessionId, max])).changes === 1;
}

/** Gives a try back (the code was right). */
export async function releaseSessionCodeTry(q: Queryable, sessionId: number): Promise<void> {
  await q.run('UPDATE sessions SET mfa_failures = CASE WHEN mfa_failures > 0 THEN mfa_failures - 1 ELSE 0 END WHERE id = ?', [sessionId]);
}
