/**
 * Tokens bound to the browser that earned them. The first answer that hands a browser a token (a
 * loginToken, a SETUP_MFA userToken, a set-password code, an invitation code, a text-reset code)
 * also gives it an HttpOnly nonce cookie, `fd_bind` (`__Host-fd_bind` when secure); the token's row
 * keeps the nonce's sha256. A token presented without that cookie is unknown: a token copied from a
 * URL (/mfa?state=…, /resetPassword/{code}), a log or a screenshot is worth nothing from another
 * client. Scripts cannot read the cookie, so the page that shows the token cannot leak the pair.
 * Codes that travel by email or text alone (reset links, activation keys) are bound to no browser:
 * the mailbox is their proof, and a reset asked for on a laptop can be finished on a phone.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { randomToken, safeEqual, sha256 } from '../crypto/primitives.js';
import { secureRequest } from './publicUrl.js';

export const BIND_COOKIE = 'fd_bind';
export const SECURE_BIND_COOKIE = '__Host-fd_bind';
const NONCE = /^[A-Za-z0-9_-]{43}$/;

/** Nonces given during this request (a second token in the same answer shares the first one's). */
const given = new WeakMap<FastifyRequest, string>();

const cookieName = (ctx: AppContext, req: FastifyRequest) => (secureRequest(ctx, req) ? SECURE_BIND_COOKIE : BIND_COOKIE);

function presented(ctx: AppContext, req: FastifyRequest): string | undefined {
  const value = given.get(req) ?? req.cookies?.[cookieName(ctx, req)];
  return typeof value === 'string' && NONCE.test(value) ? value : undefined;
}

/** The sha256 of this browser's nonce; a browser without one gets a new nonce cookie on this answer. */
export function bindBrowser(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): string {
  let nonce = presented(ctx, req);
  if (!nonce) {
    nonce = randomToken(32);
    given.set(req, nonce);
    const secure = secureRequest(ctx, req);
    reply.setCookie(secure ? SECURE_BIND_COOKIE : BIND_COOKIE, nonce, { httpOnly: true, sameSite: 'lax', path: '/', secure });
  }
  return sha256(nonce);
}

/** Whether the request comes from the browser a row was bound to (a row bound to none matches any). */
export function sameBrowser(ctx: AppContext, req: FastifyRequest, boundTo: string | null): boolean {
  if (boundTo === null) return true;
  const nonce = presented(ctx, req);
  return nonce !== undefined && safeEqual(sha256(nonce), boundTo);
}
