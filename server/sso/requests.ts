/**
 * Sign-in requests in flight (table sso_requests), shared by every instance and used once:
 * - the state of a SAML, OpenID Connect or Duo round trip (who started it, staySignedIn, returnTo, the
 *   hash of the browser's nonce cookie, PKCE verifier, nonce), keyed by the short random value that
 *   travels as RelayState / state (SAML allows RelayState of 80 bytes at most, so it carries no data);
 * - node-saml's cache of AuthnRequest IDs (InResponseTo), as its CacheProvider.
 * `take` deletes and returns in one statement: of two requests racing with one state, one gets it.
 */
import crypto from 'node:crypto';
import type { CacheItem, CacheProvider } from '@node-saml/node-saml';
import type { Database, Queryable } from '../db/data.js';
import { insertRequest, insertRequestOnce, liveRequestValue, takeRequestRow } from '../db/ssoRequests.js';

/** How long a round trip may take (the IdP's login page included). */
export const REQUEST_TTL_MS = 15 * 60_000;

/**
 * What a round trip stores of the browser that started it: the hash of its nonce cookie. The callback
 * must come from a browser with the same cookie (a stolen SAMLResponse, code or state is useless elsewhere).
 */
export function browserBinding(nonce: string): string {
  return crypto.createHash('sha256').update(`sso-browser:${nonce}`).digest('base64url');
}

/** What starting a SAML or OpenID Connect round trip needs (saml-init, oidc-init). */
export interface SsoStartOptions {
  data: Database;
  now: () => number;
  /** Public base URL of the host the visitor used (links never come from request headers). */
  baseUrl: string;
  /** The browser's nonce (its cookie); the round trip is bound to it. */
  browserNonce: string;
  staySignedIn: boolean;
  returnTo?: string | undefined;
  /** The email the visitor typed, as a login_hint the IdP may prefill (Azure AD, Okta and the demo IdP read it). */
  loginHint?: string | undefined;
}

/** A new random state / RelayState value (128 bits, base64url: 22 characters). */
export function newStateValue(): string {
  return crypto.randomBytes(16).toString('base64url');
}

export async function putRequest(q: Queryable, key: string, value: unknown, now: number, ttlMs = REQUEST_TTL_MS): Promise<void> {
  await insertRequest(q, { key, value: JSON.stringify(value), createdAt: now, expiresAt: now + ttlMs });
}

/** The request's value, deleted in the same statement (single use); undefined when unknown or expired. */
export async function takeRequest<T>(q: Queryable, key: string, now: number): Promise<T | undefined> {
  const row = await takeRequestRow(q, key);
  if (!row || row.expires_at <= now) return undefined;
  return JSON.parse(row.value) as T;
}

/** node-saml's InResponseTo cache in the database (its in-memory default would not see other instances). */
export function samlRequestCache(data: Database, now: () => number, ttlMs = REQUEST_TTL_MS): CacheProvider {
  const key = (id: string) => `saml-authn:${id}`;
  return {
    async saveAsync(id: string, value: string): Promise<CacheItem | null> {
      const createdAt = now();
      await insertRequestOnce(data, { key: key(id), value, createdAt, expiresAt: createdAt + ttlMs });
      return { value, createdAt };
    },
    async getAsync(id: string): Promise<string | null> {
      return (await liveRequestValue(data, key(id), now())) ?? null;
    },
    async removeAsync(id: string | null): Promise<string | null> {
      if (id === null) return null;
      return (await takeRequestRow(data, key(id)))?.value ?? null;
    },
  };
}
