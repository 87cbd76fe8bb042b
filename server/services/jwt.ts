/**
 * HS256 JSON Web Tokens with `jose`: the help-centre and academy single-sign-on token. The secret is
 * HELPCENTER_JWT_SECRET (derived from APP_SECRET in demo mode: Secrets.helpCenterJwt); each token
 * names its issuer (our origin) and audience (the site it is for), and a site accepts only its own.
 * Keys rotate through a keyring: one signing key, whose `kid` goes in the header, and every key a
 * token may still be verified with (the signing key and, during a rotation, the previous ones).
 */
import crypto from 'node:crypto';
import { errors, jwtVerify, SignJWT, type JWTHeaderParameters, type JWTPayload } from 'jose';

export interface JwtClaims {
  email: string;
  name: string;
  /** Issued at, seconds since the epoch. */
  iat: number;
  /** Not before, seconds since the epoch. */
  nbf?: number;
  /** Expiry, seconds since the epoch. */
  exp: number;
  /** Unique token id. */
  jti: string;
  /** Who issued the token (our origin). */
  iss?: string;
  /** The origin(s) of the site(s) the token is for. */
  aud?: string | string[];
  [claim: string]: unknown;
}

export interface JwtKey {
  /** Key id, sent as the header's `kid`; the verifier picks its key by it. */
  kid: string;
  secret: string;
}

export interface JwtKeyring {
  signing: JwtKey;
  /** Keys tokens are accepted with: the signing key first, then those being retired. */
  verifying: readonly JwtKey[];
}

/** Help-centre tokens live 5 minutes: long enough for the form post, short enough to be useless later. */
export const HELP_CENTER_TOKEN_TTL_S = 300;
/** Clock difference tolerated between the signer and the verifier (exp and nbf). */
export const JWT_LEEWAY_S = 30;
/** Longer tokens are refused unread (a form field holds them). */
const MAX_TOKEN_LENGTH = 8192;

/** A key id for a secret that says nothing about it: a hash of the secret, shortened. */
function kidOf(secret: string): string {
  return crypto.createHash('sha256').update(`frontdoor-jwt-kid\0${secret}`).digest('base64url').slice(0, 16);
}

const asKey = (key: string | JwtKey): JwtKey => (typeof key === 'string' ? { kid: kidOf(key), secret: key } : key);

/** The keyring that signs with `current` and verifies with it and with `previous` (a key rotation). */
export function jwtKeyring(current: string | JwtKey, previous: readonly (string | JwtKey)[] = []): JwtKeyring {
  const signing = asKey(current);
  const verifying = [signing, ...previous.map(asKey).filter((k) => k.kid !== signing.kid)];
  return { signing, verifying };
}

const keyringOf = (keys: JwtKeyring | string): JwtKeyring => (typeof keys === 'string' ? jwtKeyring(keys) : keys);
const keyBytes = (key: JwtKey): Uint8Array => new TextEncoder().encode(key.secret);

/** Signs `claims` (iat, nbf, exp, jti, iss and aud among them, as given) with the keyring's signing key. */
export async function signJwt(claims: JWTPayload, keys: JwtKeyring | string): Promise<string> {
  const { signing } = keyringOf(keys);
  return new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signing.kid }).sign(keyBytes(signing));
}

export interface VerifyJwtOptions {
  /** Now, milliseconds since the epoch (the server clock: ctx.now()). */
  nowMs: number;
  /** The origin this verifier is: the token's aud must name it. */
  audience?: string;
  /** The issuer the token must name. */
  issuer?: string;
  /** Seconds of clock difference tolerated (default JWT_LEEWAY_S). */
  leewaySeconds?: number;
}

/**
 * The claims of a well-formed HS256 token signed by one of the keyring's keys (by `kid`; a token
 * without one is tried against each), inside its nbf..exp window give or take the leeway, for
 * `audience` and from `issuer` when given; else null.
 */
export async function verifyJwt(token: string, keys: JwtKeyring | string, options: VerifyJwtOptions): Promise<JwtClaims | null> {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const { verifying } = keyringOf(keys);
  const check = {
    algorithms: ['HS256'],
    currentDate: new Date(options.nowMs),
    clockTolerance: options.leewaySeconds ?? JWT_LEEWAY_S,
    requiredClaims: ['iat', 'exp', 'jti'],
    ...(options.audience !== undefined ? { audience: options.audience } : {}),
    ...(options.issuer !== undefined ? { issuer: options.issuer } : {}),
  };
  let candidates: readonly JwtKey[];
  try {
    const header = JSON.parse(Buffer.from(token.split('.')[0] ?? '', 'base64url').toString('utf8')) as Partial<JWTHeaderParameters>;
    candidates = header.kid === undefined ? verifying : verifying.filter((k) => k.kid === header.kid);
  } catch {
    return null;
  }
  for (const key of candidates) {
    try {
      const { payload } = await jwtVerify(token, keyBytes(key), check);
      return typeof payload.email === 'string' && typeof payload.name === 'string' ? (payload as JwtClaims) : null;
    } catch (error) {
      // A wrong key only matters when another key may still fit; any other failure is final.
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) return null;
    }
  }
  return null;
}

/** A fresh single-sign-on token for a user, from `issuer` for the site(s) of `audience` (origins). */
export function helpCenterToken(
  user: { email: string; name: string },
  nowMs: number,
  keys: JwtKeyring | string,
  audience: string | string[],
  issuer?: string,
): Promise<string> {
  const iat = Math.floor(nowMs / 1000);
  const claims = { email: user.email, name: user.name, aud: audience, iat, nbf: iat, exp: iat + HELP_CENTER_TOKEN_TTL_S, jti: crypto.randomUUID() };
  return signJwt(issuer ? { ...claims, iss: issuer } : claims, keys);
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
