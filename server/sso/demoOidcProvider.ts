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
  const read = async () => data.get<{ value: string }>('SELECT value FROM server_secrets WHERE name = ?', [SECRET_NAME]);
  const existing = await read();
  if (existing) return JSON.parse(existing.value) as ProviderKeys;
  const { privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const keys: ProviderKeys = {
    jwk: { ...privateKey.export({ format: 'jwk' }), kid: crypto.randomBytes(8).toString('hex'), use: 'sig', alg: 'RS256' },
    cookieKeys: [crypto.randomBytes(32).toString('base64url')],
  };
  await data.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO NOTHING', [
    SECRET_NAME,
    JSON.stringify(keys),
    now,
  ]);
  return JSON.parse((await read())?.value ?? JSON.stringify(keys)) as ProviderKeys;
}

/** oidc-provider's storage on the data layer: one table, rows keyed by (model, id), expiring. */
export function databaseAdapter(data: Database, now: () => number, clientFor: (id: string) => Promise<AdapterPayload | undefined>) {
  return class DatabaseAdapter implements Adapter {
    constructor(private readonly model: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const expires = now() + (expiresIn ?? 14 * 24 * 3600) * 1000;
      await data.run(
        `INSERT INTO oidc_provider_store (model, id, payload, grant_id, user_code, uid, consumed_at, expires_at) VALUES (@model, @id, @payload, @grant, @userCode, @uid, NULL, @expires)
         ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
        {
          model: this.model,
          id,
          payload: JSON.stringify(payload),
          grant: payload.grantId ?? null,
          userCode: payload.userCode ?? null,
          uid: payload.uid ?? null,
          expires,
        },
      );
    }

    private async findBy(column: 'id' | 'user_code' | 'uid', value: string): Promise<AdapterPayload | undefined> {
      const row = await data.get<{ payload: string; consumed_at: number | null }>(
        `SELECT payload, consumed_at FROM oidc_provider_store WHERE model = ? AND ${column} = ? AND expires_at > ?`,
        [this.model, value, now()],
      );
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
      await data.run('UPDATE oidc_provider_store SET consumed_at = ? WHERE model = ? AND id = ?', [now(), this.model, id]);
    }
    async destroy(id: string): Promise<void> {
      await data.run('DELETE FROM oidc_provider_store WHERE model = ? AND id = ?', [this.model, id]);
    }
    async revokeByGrantId(grantId: string): Promise<void> {
      await data.run('DELETE FROM oidc_provider_store WHERE grant_id = ?', [grantId]);
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
