/**
 * OpenID Connect connections (openid-client): the authorization code flow with PKCE (S256), state and
 * nonce. `startOidc` discovers the issuer (cached per connection for an hour), keeps the round trip's
 * state single-use in sso_requests (connection, staySignedIn, returnTo, PKCE verifier, nonce, the
 * browser's nonce hash) and answers the authorization URL; `finishOidc` takes that state once, checks
 * the browser, exchanges the code (client_secret_basic) and lets openid-client check the ID token:
 * issuer, audience, expiry, nonce, and its signature against the issuer's JWKS. openid-client 6 checks
 * the signature only when asked (an ID token from the token endpoint over TLS may go unchecked, OIDC
 * Core 3.1.3.7): `enableNonRepudiationChecks` asks it, so a token signed by any other key is refused
 * (asymmetric algorithms only: RS*, PS*, ES*, EdDSA; an HS256 provider is refused). The email comes
 * from its claims, or from UserInfo (for the same subject) when the ID token carries none, and must be
 * verified (`email_verified` true) unless the connection waives it (OidcSettings.acceptUnverifiedEmail,
 * `npm run admin -- sso-set-oidc`), for a provider that never sends the claim.
 */
import * as client from 'openid-client';
import type { Database } from '../db/data.js';
import type { OidcConnection } from './connections.js';
import { browserBinding, newStateValue, putRequest, takeRequest, type SsoStartOptions } from './requests.js';

export type OidcRefusal = 'PROVIDER_UNAVAILABLE' | 'STATE_UNKNOWN' | 'OTHER_BROWSER' | 'IDP_ERROR' | 'CODE_REJECTED' | 'NO_EMAIL' | 'EMAIL_UNVERIFIED';

export const OIDC_REFUSALS: Record<OidcRefusal, string> = {
  PROVIDER_UNAVAILABLE: 'The identity provider cannot be reached right now. Try again in a moment.',
  STATE_UNKNOWN: 'This sign-in took too long or was already completed. Start again from the sign-in page.',
  OTHER_BROWSER: 'This sign-in was started in another browser. Start again from the sign-in page in this one.',
  IDP_ERROR: 'The identity provider did not sign you in.',
  CODE_REJECTED: "The identity provider's answer could not be confirmed. Start again from the sign-in page.",
  NO_EMAIL: 'The identity provider did not say which email address you signed in with.',
  EMAIL_UNVERIFIED: 'The identity provider has not verified your email address.',
};

export type OidcResult =
  | { ok: true; email: string; subject: string; staySignedIn: boolean; returnTo?: string | undefined }
  | { ok: false; reason: OidcRefusal; message: string; detail: string };

interface OidcState {
  c: number;
  v: string;
  n: string;
  ssi: boolean;
  rt?: string;
  b: string;
}

/** Our redirect URI for a connection under a public base URL. */
export function oidcCallbackUrl(connectionId: number, baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/sso/oidc/${connectionId}/callback`;
}

const DISCOVERY_TTL_MS = 60 * 60_000;
const discovered = new Map<string, { at: number; config: Promise<client.Configuration> }>();

/** The issuer's configuration (discovery document), cached; plain http only for a loopback issuer (the demo). */
async function configurationFor(connection: OidcConnection, now: number): Promise<client.Configuration> {
  const key = `${connection.id}:${connection.settings.issuer}:${connection.settings.clientId}`;
  const hit = discovered.get(key);
  if (hit && now - hit.at < DISCOVERY_TTL_MS) return hit.config;
  const issuer = new URL(connection.settings.issuer);
  const loopback = ['127.0.0.1', 'localhost', '[::1]'].includes(issuer.hostname) || issuer.hostname.endsWith('.localhost');
  const config = client.discovery(
    issuer,
    connection.settings.clientId,
    connection.secrets.clientSecret,
    client.ClientSecretBasic(connection.secrets.clientSecret),
    {
      // The ID token's signature is checked against the issuer's JWKS (see above).
      execute: [...(issuer.protocol === 'http:' && loopback ? [client.allowInsecureRequests] : []), client.enableNonRepudiationChecks],
      timeout: 10,
    },
  );
  discovered.set(key, { at: now, config });
  config.catch(() => discovered.delete(key));
  return config;
}

function refuse(reason: OidcRefusal, detail: string): OidcResult & { ok: false } {
  return { ok: false, reason, message: OIDC_REFUSALS[reason], detail };
}

export async function startOidc(connection: OidcConnection, options: SsoStartOptions): Promise<{ ok: true; url: string } | (OidcResult & { ok: false })> {
  let config: client.Configuration;
  try {
    config = await configurationFor(connection, options.now());
  } catch (error) {
    return refuse('PROVIDER_UNAVAILABLE', (error as Error).message);
  }
  const verifier = client.randomPKCECodeVerifier();
  const state = newStateValue();
  const nonce = client.randomNonce();
  await putRequest(
    options.data,
    `oidc-state:${state}`,
    {
      c: connection.id,
      v: verifier,
      n: nonce,
      ssi: options.staySignedIn,
      b: browserBinding(options.browserNonce),
      ...(options.returnTo ? { rt: options.returnTo } : {}),
    } satisfies OidcState,
    options.now(),
  );
  const url = client.buildAuthorizationUrl(config, {
    redirect_uri: oidcCallbackUrl(connection.id, options.baseUrl),
    scope: connection.settings.scopes ?? 'openid email profile',
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    ...(options.loginHint ? { login_hint: options.loginHint } : {}),
  });
  return { ok: true, url: url.href };
}

export interface OidcFinishOptions {
  data: Database;
  now: () => number;
  baseUrl: string;
  browserNonce: string | undefined;
}

/** GET /sso/oidc/{id}/callback?code=…&state=… (or ?error=…). `query` is the callback's query string. */
export async function finishOidc(connection: OidcConnection, query: URLSearchParams, options: OidcFinishOptions): Promise<OidcResult> {
  const stateValue = query.get('state');
  if (!stateValue || stateValue.length > 64) return refuse('STATE_UNKNOWN', 'no state');
  const state = await takeRequest<OidcState>(options.data, `oidc-state:${stateValue}`, options.now());
  if (!state || state.c !== connection.id) return refuse('STATE_UNKNOWN', 'no such state for this connection');
  if (!options.browserNonce || browserBinding(options.browserNonce) !== state.b) return refuse('OTHER_BROWSER', 'browser nonce mismatch');
  if (query.get('error')) return refuse('IDP_ERROR', `${query.get('error')}: ${query.get('error_description') ?? ''}`);
  let config: client.Configuration;
  try {
    config = await configurationFor(connection, options.now());
  } catch (error) {
    return refuse('PROVIDER_UNAVAILABLE', (error as Error).message);
  }
  const current = new URL(oidcCallbackUrl(connection.id, options.baseUrl));
  current.search = query.toString();
  let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
  try {
    const tokens = await client.authorizationCodeGrant(config, current, {
      pkceCodeVerifier: state.v,
      expectedState: stateValue,
      expectedNonce: state.n,
      idTokenExpected: true,
    });
    claims = tokens.claims();
    // Providers that follow the spec to the letter put scope claims (email) in UserInfo only.
    if (claims && typeof claims.email !== 'string') claims = { ...(await client.fetchUserInfo(config, tokens.access_token, claims.sub)), sub: claims.sub };
  } catch (error) {
    return refuse('CODE_REJECTED', (error as Error).message);
  }
  if (!claims) return refuse('CODE_REJECTED', 'no ID token');
  const email = typeof claims.email === 'string' ? claims.email.trim().toLowerCase() : '';
  if (!email) return refuse('NO_EMAIL', 'no email claim in the ID token or UserInfo');
  // Missing counts as unverified; a provider that never sends it needs the connection's waiver.
  const verified = claims.email_verified === true || claims.email_verified === 'true';
  if (!verified && connection.settings.acceptUnverifiedEmail !== true)
    return refuse('EMAIL_UNVERIFIED', `email_verified is ${claims.email_verified === undefined ? 'missing' : JSON.stringify(claims.email_verified)}`);
  return { ok: true, email, subject: claims.sub, staySignedIn: state.ssi, returnTo: state.rt };
}
