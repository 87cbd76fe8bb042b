/**
 * Cookie sessions. The cookie holds a random 32-byte token; the table keeps its sha256. On https the
 * cookie is `__Host-fd_session` (the browser then insists on Secure, Path=/ and no Domain: a sibling
 * subdomain cannot plant or overwrite it); on plain http (the demo on localhost) it is `fd_session`.
 * Without staySignedIn the cookie is a browser-session cookie (server-side lifetime 12 hours);
 * with it the cookie and the row last 30 days. A sign-in replaces the session the browser had
 * (rotation: a planted or stolen earlier cookie is worth nothing afterwards); a password change ends
 * every session of the user.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../db/index.js';
import { randomToken, sha256 } from './crypto.js';
import type { UserRow } from './users.js';

export const SESSION_COOKIE = 'fd_session';
export const SECURE_SESSION_COOKIE = '__Host-fd_session';
export const PERSISTENT_SESSION_MS = 30 * 24 * 60 * 60 * 1000;
export const BROWSER_SESSION_MS = 12 * 60 * 60 * 1000;

export interface Sessions {
  /** Creates the session row and sets the cookie on the reply. */
  start(req: FastifyRequest, reply: FastifyReply, userId: number, staySignedIn: boolean): void;
  /** The user of the request's valid session, if any. */
  current(req: FastifyRequest): { sessionId: number; user: UserRow } | null;
  /** Deletes the request's session (all the user's sessions with all=true) and clears the cookie. */
  end(req: FastifyRequest, reply: FastifyReply, all: boolean): void;
  /** Ends every session of a user (password reset or change). */
  revokeAll(userId: number): number;
}

const isHttps = (req: FastifyRequest) => req.protocol === 'https';
export const sessionCookieName = (req: FastifyRequest): string => (isHttps(req) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);

export function createSessions(db: Db, now: () => number): Sessions {
  const cookieToken = (req: FastifyRequest): string | undefined => {
    const v = req.cookies?.[sessionCookieName(req)];
    return typeof v === 'string' && v.length > 0 && v.length < 200 ? v : undefined;
  };

  const current: Sessions['current'] = (req) => {
    const token = cookieToken(req);
    if (!token) return null;
    const row = db
      .prepare(
        `SELECT s.id AS session_id, u.* FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.token_hash = ? AND s.expires_at > ?`,
      )
      .get(sha256(token), now()) as (UserRow & { session_id: number }) | undefined;
    if (!row) return null;
    if (row.state !== 'active') return null;
    db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id = ?').run(now(), row.session_id);
    const { session_id, ...user } = row;
    return { sessionId: session_id, user };
  };

  return {
    start(req, reply, userId, staySignedIn) {
      const previous = cookieToken(req);
      if (previous) db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(sha256(previous));
      const token = randomToken(32);
      const t = now();
      db.prepare(
        `INSERT INTO sessions (token_hash, user_id, persistent, created_at, expires_at, last_seen_at, ip, user_agent)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        sha256(token),
        userId,
        staySignedIn ? 1 : 0,
        t,
        t + (staySignedIn ? PERSISTENT_SESSION_MS : BROWSER_SESSION_MS),
        t,
        req.ip,
        String(req.headers['user-agent'] ?? '').slice(0, 300),
      );
      reply.setCookie(sessionCookieName(req), token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: isHttps(req),
        ...(staySignedIn ? { maxAge: PERSISTENT_SESSION_MS / 1000 } : {}),
      });
    },
    current,
    end(req, reply, all) {
      const token = cookieToken(req);
      if (token) {
        const row = db.prepare('SELECT user_id FROM sessions WHERE token_hash = ?').get(sha256(token)) as { user_id: number } | undefined;
        if (row && all) db.prepare('DELETE FROM sessions WHERE user_id = ?').run(row.user_id);
        else db.prepare('DELETE FROM sessions WHERE token_hash = ?').run(sha256(token));
      }
      reply.clearCookie(sessionCookieName(req), { path: '/', httpOnly: true, sameSite: 'lax', secure: isHttps(req) });
    },
    revokeAll: (userId) => db.prepare('DELETE FROM sessions WHERE user_id = ?').run(userId).changes,
  };
}
