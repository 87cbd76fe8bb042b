/**
 * HS256 JSON Web Tokens with node:crypto (no library): the help-centre and academy single-sign-on
 * token. The secret is HELPCENTER_JWT_SECRET (derived from APP_SECRET in demo mode: Secrets.helpCenterJwt);
 * each token names its audience (the site it is for) and a site accepts only its own.
 */
import crypto from 'node:crypto';
import { safeEqual } from './crypto.js';

export interface JwtClaims {
  email: string;
  name: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Unique token id. */
  jti: string;
  /** The origin(s) of the site(s) the token is for. */
  aud?: string | string[];
  [claim: string]: unknown;
}

/** Help-centre tokens live 5 minutes: long enough for the form post, short enough to be useless later. */
export const HELP_CENTER_TOKEN_TTL_S = 300;

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

function signature(secret: string, signingInput: string): string {
  return crypto.createHmac('sha256', secret).update(signingInput).digest('base64url');
}

export function signJwt(claims: Record<string, unknown>, secret: string): string {
  const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${signature(secret, input)}`;
}

/** The claims of a well-formed, correctly signed, unexpired HS256 token (for `audience`, when given); else null. */
export function verifyJwt(token: string, nowMs: number, secret: string, audience?: string): JwtClaims | null {
  if (typeof token !== 'string' || token.length > 8192) return null;
  const parts = token.split('.');
  if (parts.length !== 3) return null;
  const [header, payload, sig] = parts as [string, string, string];
  if (!safeEqual(sig, signature(secret, `${header}.${payload}`))) return null;
  try {
    const h = JSON.parse(Buffer.from(header, 'base64url').toString('utf8')) as { alg?: unknown };
    if (h.alg !== 'HS256') return null;
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as Partial<JwtClaims>;
    if (typeof claims !== 'object' || claims === null) return null;
    if (typeof claims.email !== 'string' || typeof claims.exp !== 'number' || typeof claims.iat !== 'number') return null;
    if (claims.exp * 1000 <= nowMs) return null;
    if (audience !== undefined && !(Array.isArray(claims.aud) ? claims.aud.includes(audience) : claims.aud === audience)) return null;
    return claims as JwtClaims;
  } catch {
    return null;
  }
}

/** A fresh single-sign-on token for a user, for the site(s) of `audience` (origins). */
export function helpCenterToken(user: { email: string; name: string }, nowMs: number, secret: string, audience: string | string[]): string {
  const iat = Math.floor(nowMs / 1000);
  return signJwt({ email: user.email, name: user.name, aud: audience, iat, exp: iat + HELP_CENTER_TOKEN_TTL_S, jti: crypto.randomUUID() }, secret);
}

/**
 * Help-centre hosts (origins + base path, no trailing slash): HELPCENTER_HOST and
 * HELPCENTER_GOVERNMENT_HOST (unset: no help centre). With dev tools on, both default to the demo help
 * centre of this server (/dev/helpcenter on the public base URL).
 */
export function helpCenterHosts(
  configured: { host?: string; governmentHost?: string },
  devTools: boolean,
  base: string,
): { host?: string; governmentHost?: string } {
  const dev = devTools ? `${base}/dev/helpcenter` : undefined;
  const host = configured.host ?? dev;
  const governmentHost = configured.governmentHost ?? dev;
  return { ...(host ? { host } : {}), ...(governmentHost ? { governmentHost } : {}) };
}
