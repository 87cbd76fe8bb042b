/**
 * HS256 JSON Web Tokens with node:crypto (no library): the help-centre single-sign-on token.
 * The secret is HELPCENTER_JWT_SECRET, else random per process (tokens do not survive a restart).
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
  [claim: string]: unknown;
}

/** Help-centre tokens live 5 minutes: long enough for the form post, short enough to be useless later. */
export const HELP_CENTER_TOKEN_TTL_S = 300;

const processSecret = process.env.HELPCENTER_JWT_SECRET || crypto.randomBytes(32).toString('hex');

const b64url = (value: string | Buffer): string => Buffer.from(value).toString('base64url');

function signature(secret: string, signingInput: string): string {
  return crypto.createHmac('sha256', secret).update(signingInput).digest('base64url');
}

export function signJwt(claims: Record<string, unknown>, secret: string = processSecret): string {
  const input = `${b64url(JSON.stringify({ alg: 'HS256', typ: 'JWT' }))}.${b64url(JSON.stringify(claims))}`;
  return `${input}.${signature(secret, input)}`;
}

/** The claims of a well-formed, correctly signed, unexpired HS256 token; else null. */
export function verifyJwt(token: string, nowMs: number = Date.now(), secret: string = processSecret): JwtClaims | null {
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
    return claims as JwtClaims;
  } catch {
    return null;
  }
}

/** A fresh help-centre token for a user. */
export function helpCenterToken(user: { email: string; name: string }, nowMs: number, secret?: string): string {
  const iat = Math.floor(nowMs / 1000);
  return signJwt({ email: user.email, name: user.name, iat, exp: iat + HELP_CENTER_TOKEN_TTL_S, jti: crypto.randomUUID() }, secret);
}

/**
 * Help-centre hosts (origins + base path, no trailing slash). Production: HELPCENTER_HOST and
 * HELPCENTER_GOVERNMENT_HOST (unset: no help centre). With dev tools on, both default to the demo help
 * centre of this server (/dev/helpcenter on the request's origin).
 */
export function helpCenterHosts(devTools: boolean, origin: string): { host?: string; governmentHost?: string } {
  const dev = devTools ? `${origin}/dev/helpcenter` : undefined;
  const host = process.env.HELPCENTER_HOST || dev;
  const governmentHost = process.env.HELPCENTER_GOVERNMENT_HOST || dev;
  return { ...(host ? { host } : {}), ...(governmentHost ? { governmentHost } : {}) };
}
