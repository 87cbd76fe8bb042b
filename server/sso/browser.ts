/**
 * The browser's nonce cookie that binds a round trip through another site (a SAML or OpenID sign-in,
 * a Duo prompt) to the browser that started it. SameSite=None because a SAML response arrives as a
 * cross-site POST. The `__Host-` prefix (Secure, Path=/, no Domain, enforced by the browser) means no
 * sibling subdomain can plant one. Always Secure, also in demo mode on http://localhost: Chromium and
 * Firefox treat localhost and 127.0.0.1 as secure origins and keep Secure and `__Host-` cookies there
 * (docs/server.md, "Sign-in"); other host names need https for single sign-on.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';

export const SSO_COOKIE = '__Host-fd_sso';
const COOKIE_MAX_AGE_S = 30 * 24 * 3600;

/** The browser's nonce: the one it has, or a new one set now. */
export function browserNonce(req: FastifyRequest, reply: FastifyReply): string {
  const existing = req.cookies?.[SSO_COOKIE];
  if (existing && /^[\w-]{32,64}$/.test(existing)) return existing;
  const nonce = crypto.randomBytes(24).toString('base64url');
  reply.setCookie(SSO_COOKIE, nonce, { path: '/', httpOnly: true, secure: true, sameSite: 'none', maxAge: COOKIE_MAX_AGE_S });
  return nonce;
}
