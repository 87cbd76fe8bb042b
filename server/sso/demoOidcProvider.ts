/**
 * The demo tenant's OpenID provider (demo mode only, mounted at /dev/oidc by routes/devOidc.ts): an
 * `oidc-provider` instance, so the demo and the tests run the real code flow against the real client
 * code. Its grants, codes and sessions live in the database (oidc_provider_store) so that every demo
 * instance sees them; its signing key and cookie keys are made once per database (server_secrets),
 * DEMO ONLY. Its clients are the OIDC connections whose issuer is this provider: their client ID and
 * (sealed) secret, and our callback URL as the only redirect URI. It signs in whichever email the
 * sign-in page passed as login_hint, as /dev/idp did.
 */
import crypto from 'node:crypto';
import type { Adapter, AdapterPayload, Configuration, default as Provider } from 'oidc-provider';
import type { Database } from '../db/data.js';
import { consumeProviderRow, deleteProviderGrant, deleteProviderRow, findProviderRow, upsertProviderRow } from '../db/oidcProviderStore.js';
import { keepServerSecret, readServerSecret } from '../db/serverSecrets.js';
import { getConnection, listConnections, type Sealer } from './connections.js';
import { oidcCallbackUrl } from './oidc.js';

export const DEMO_OIDC_PATH = '/dev/oidc';
export const DEMO_OIDC_LOGIN_PATH = '/dev/oidc-login';
const SECRET_NAME = 'demo-oidc-provider-keys';

export function demoOidcIssuer(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${DEMO_OIDC_PATH}`;
}

interface ProviderKeys {
  jwk: Record<string, unknown>;
  cookieKeys: string[];
}

async function providerKeys(data: Database, now: number): Promise<ProviderKeys> {
  const existing = await readServerSecret(data, SECRET_NAME);
  if (existing !== undefined) return JSON.parse(existing) as ProviderKeys;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys: ProviderKeys = {
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: crypto.randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' },
    cookieKeys: [crypto.randomBytes(32).toString('base64url')],
  };
  return JSON.parse(await keepServerSecret(data, SECRET_NAME, JSON.stringify(keys), now)) as ProviderKeys;
}

/** oidc-provider's storage on the data layer: one table, rows keyed by (model, id), expiring. */
export function databaseAdapter(data: Database, now: () => number, clientFor: (id: string) => Promise<AdapterPayload | undefined>) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expires = now() + (expiresIn ?? 14 * 24 * 3600) * 1000;
      await upsertProviderRow(data, {
        model: this.model,
        id,
        payload: JSON.stringify(payload),
        grantId: payload.grantId ?? null,
        userCode: payload.userCode ?? null,
        uid: payload.uid ?? null,
        expiresAt: expires,
      });
    }

    private async findBy(column: 'id' | 'user_code' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const row = await findProviderRow(data, this.model, column, value, now());
      if (!row) return undefined;
      const payload = JSON.parse(row.payload) as AdapterPayload;
      return row.consumed_at === null ? payload : { ...payload, consumed: Math.floor(row.consumed_at / 1000) };
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      if (this.model === 'Client') return clientFor(id);
      return this.findBy('id', id);
    }
    findByUserCode = (userCode: string) => this.findBy('user_code', userCode);
    findByUid = (uid: string) => this.findBy('uid', uid);

    async consume(id: string): Promise<void> {
      await consumeProviderRow(data, this.model, id, now());
    }
    async destroy(id: string): Promise<void> {
      await deleteProviderRow(data, this.model, id);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      await deleteProviderGrant(data, grantId);
    }
  };
}

export interface DemoOidcOptions {
  data: Database;
  sealer: Sealer;
  baseUrl: string;
  now: () => number;
}

/** The provider for this base URL (its issuer is {baseUrl}/dev/oidc). */
export async function createDemoOidcProvider(options: DemoOidcOptions): Promise<Provider> {
  const issuer = demoOidcIssuer(options.baseUrl);
  const keys = await providerKeys(options.data, options.now());
  const clientFor = async (clientId: string): Promise<AdapterPayload | undefined> => {
    const match = (await listConnections(options.data)).find(
      (c) => c.protocol === 'oidc' && c.enabled && c.settings.issuer === issuer && c.settings.clientId === clientId,
    );
    const connection = match && (await getConnection(options.data, match.id, options.sealer));
    if (!connection || connection.protocol !== 'oidc') return undefined;
    return {
      client_id: clientId,
      client_secret: connection.secrets.clientSecret,
      redirect_uris: [oidcCallbackUrl(connection.id, options.baseUrl)],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    };
  };
  const configuration: Configuration = {
    adapter: databaseAdapter(options.data, options.now, clientFor),
    findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub, email: sub, email_verified: true }) }),
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    // The email and email_verified: true in the ID token itself too (not only UserInfo): a client that
    // reads the ID token alone sees a verified address, as from the big providers.
    conformIdTokenClaims: false,
    scopes: ['openid', 'email', 'profile'],
    pkce: { required: () => true },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `${DEMO_OIDC_LOGIN_PATH}/${interaction.uid}` },
    cookies: { keys: keys.cookieKeys },
    jwks: { keys: [keys.jwk as never] },
    ttl: { AuthorizationCode: 60, IdToken: 300, AccessToken: 300, Interaction: 900, Session: 3600, Grant: 3600 },
    renderError: async (ctx, out) => {
      ctx.type = 'text/plain; charset=utf-8';
      ctx.body = `Demo OpenID provider: ${out.error}${out.error_description ? `: ${out.error_description}` : ''}`;
    },
  };
  // Loaded on first use: the package warns at import on Node 20 (it asks for 22 LTS; it works on 20),
  // and only the demo needs it.
  const { default: OidcProvider } = await import('oidc-provider');
  return new OidcProvider(issuer, configuration);
}
