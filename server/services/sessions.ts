/**
 * Cookie sessions. The cookie holds a random 32-byte token; the table keeps its sha256. When the
 * request is secure (https, or an https public URL: publicUrl.ts secureRequest) the cookie is
 * `__Host-fd_session` and Secure (the browser then insists on Secure, Path=/ and no Domain: a sibling
 * subdomain cannot plant or overwrite it); on plain http (the demo on localhost) it is `fd_session`.
 * Lifetimes (ASVS 3.3.1, 3.3.2), checked on every use from `last_seen_at`:
 * - a browser session (no "Keep me signed in"): ends after 30 minutes without a request, and at
 *   the latest 12 hours after sign-in; the cookie itself dies with the browser;
 * - "Keep me signed in": ends after 7 days without a request, and at the latest 30 days after sign-in.
 * A sign-in replaces the session the browser had (rotation: a planted or stolen earlier cookie is
 * worth nothing afterwards); a password change or "sign out everywhere" ends every session of the user.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Queryable } from '../db/data.js';
import { deleteSessionByToken, deleteUserSessions, insertSession, liveSession, touchSession } from '../db/sessions.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import type { UserRow } from '../db/accounts.js';

export const SESSION_COOKIE = 'fd_session';
export const SECURE_SESSION_COOKIE = '__Host-fd_session';
const MINUTE = 60 * 1000;
const DAY = 24 * 60 * MINUTE;
/** Absolute lifetime and idle time-out of a "Keep me signed in" session. */
export const PERSISTENT_SESSION_MS = 30 * DAY;
export const PERSISTENT_IDLE_MS = 7 * DAY;
/** Absolute lifetime and idle time-out of a browser session. */
export const BROWSER_SESSION_MS = 12 * 60 * MINUTE;
export const BROWSER_IDLE_MS = 30 * MINUTE;
/** last_seen_at is written at most once a minute per session (reads stay cheap). */
const SEEN_GRANULARITY_MS = MINUTE;

export interface Sessions {
  /**
   * Creates the session row on q (ctx.data, or the t of the transaction that spends the token it
   * follows) and sets the cookie on the reply. Safe in a transaction that runs again (PostgreSQL
   * retries): the row rolls back with it, and the cookie set by the last run replaces the earlier one.
   * `passkeyId`: the passkey it signed in with (removing that passkey ends the session: db/passkeys.ts).
   */
  start(q: Queryable, req: FastifyRequest, reply: FastifyReply, userId: number, staySignedIn: boolean, passkeyId?: number | null): Promise<void>;
  /** The user of the request's valid session, if any. */
  current(req: FastifyRequest): Promise<{ sessionId: number; user: UserRow } | null>;
  /** Deletes the request's session (all the user's sessions with all=true) and clears the cookie; the session's user, if any. */
  end(req: FastifyRequest, reply: FastifyReply, all: boolean): Promise<number | undefined>;
  /** Ends every session of a user (password reset or change), on q. */
  revokeAll(q: Queryable, userId: number): Promise<number>;
}

/** Whether a request's cookies are Secure (publicUrl.ts secureRequest). */
export type SecureRequest = (req: FastifyRequest) => boolean;

export function createSessions(data: Queryable, now: () => number, isSecure: SecureRequest): Sessions {
  const cookieName = (req: FastifyRequest): string => (isSecure(req) ? SECURE_SESSION_COOKIE : SESSION_COOKIE);
  const cookieToken = (req: FastifyRequest): string | undefined => {
    const v = req.cookies?.[cookieName(req)];
    return typeof v === 'string' && v.length > 0 && v.length < 200 ? v : undefined;
  };

  const current: Sessions['current'] = async (req) => {
    const token = cookieToken(req);
    if (!token) return null;
    const t = now();
    // Absolute lifetime (expires_at) and idle time-out (last_seen_at), both checked here.
    const row = await liveSession(data, sha256(token), t, { persistent: t - PERSISTENT_IDLE_MS, browser: t - BROWSER_IDLE_MS });
    if (!row) return null;
    if (row.state !== 'active') return null;
    if (row.session_seen <= t - SEEN_GRANULARITY_MS) await touchSession(data, row.session_id, t);
    const { session_id, session_seen: _seen, ...user } = row;
    return { sessionId: session_id, user };
  };

  return {
    async start(q, req, reply, userId, staySignedIn, passkeyId = null) {
      const previous = cookieToken(req);
      if (previous) await deleteSessionByToken(q, sha256(previous));
      const token = randomToken(32);
      const t = now();
      await insertSession(q, {
        tokenHash: sha256(token),
        userId,
        persistent: staySignedIn,
        createdAt: t,
        expiresAt: t + (staySignedIn ? PERSISTENT_SESSION_MS : BROWSER_SESSION_MS),
        ip: req.ip,
        userAgent: String(req.headers['user-agent'] ?? ''),
        passkeyId,
      });
      reply.setCookie(cookieName(req), token, {
        httpOnly: true,
        sameSite: 'lax',
        path: '/',
        secure: isSecure(req),
        ...(staySignedIn ? { maxAge: PERSISTENT_SESSION_MS / 1000 } : {}),
      });
    },
    current,
    async end(req, reply, all) {
      const token = cookieToken(req);
      let userId: number | undefined;
      if (token) {
        // "Everywhere" takes a live session (an idle or expired cookie only ends itself).
        userId = all ? (await current(req))?.user.id : undefined;
        if (userId !== undefined) await deleteUserSessions(data, userId);
        else await deleteSessionByToken(data, sha256(token));
      }
      reply.clearCookie(cookieName(req), { path: '/', httpOnly: true, sameSite: 'lax', secure: isSecure(req) });
      return userId;
    },
    revokeAll: (q, userId) => deleteUserSessions(q, userId),
  };
}
