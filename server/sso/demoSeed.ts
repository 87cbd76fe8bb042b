/**
 * The demo tenant's single sign-on rows (DEMO-TENANT.md, "Rows for the capabilities being built"):
 * a SAML connection "Demo IdP" to the demo SAML IdP (/dev/saml-idp) for sso@demo.test, and an OpenID
 * Connect connection "Demo OIDC" to the demo OpenID provider (/dev/oidc) for oidc@demo.test, both in
 * the demo organisation, so that both sign in through the real protocol code (node-saml,
 * openid-client). app.ts seeds them with the demo tenant, on a fresh start and on POST /dev/reset:
 * `demoSsoSeeder` reads (or makes, once per database) the keys before the seed's transaction (key
 * generation is slow, docs/data-layer.md) and returns the part that runs inside it.
 */
import crypto from 'node:crypto';
import type { Database, Queryable } from '../db/data.js';
import { keepServerSecret, readServerSecret } from '../db/serverSecrets.js';
import { addConnection, assignConnection, type Sealer } from './connections.js';
import { demoIdpKeys, demoIdpUrls, demoKeyPair } from './demoSamlIdp.js';
import { demoOidcIssuer } from './demoOidcProvider.js';
import type { KeyPair } from './keys.js';

export const DEMO_OIDC_CLIENT_ID = 'demo-oidc-client';
const SECRET_NAME = 'demo-sso-sp';

export interface DemoSsoKeys {
  /** The demo IdP's pair (demoIdpKeys): its certificate is what the SP trusts. */
  idp: KeyPair;
  /** The demo SP's signing pair. */
  sp: KeyPair;
  /** The demo OIDC client's secret (any random string). */
  oidcClientSecret: string;
}

/** The demo SP's pair and the OIDC client's secret: made once per database and kept (server_secrets, which a reset keeps). DEMO ONLY. */
async function demoSpKeys(data: Queryable, now: number): Promise<Omit<DemoSsoKeys, 'idp'>> {
  const existing = await readServerSecret(data, SECRET_NAME);
  if (existing !== undefined) return JSON.parse(existing) as Omit<DemoSsoKeys, 'idp'>;
  const made = { sp: await demoKeyPair(SECRET_NAME, 'Front Door demo SP (demo only)', now), oidcClientSecret: crypto.randomBytes(24).toString('base64url') };
  // Two instances seeding a fresh database together: the first insert wins, both read the same keys.
  return JSON.parse(await keepServerSecret(data, SECRET_NAME, JSON.stringify(made), now)) as Omit<DemoSsoKeys, 'idp'>;
}

export async function seedDemoSso(
  t: Queryable,
  options: { organizationId: number; baseUrl: string; keys: DemoSsoKeys; sealer: Sealer; now: number },
): Promise<{ saml: number; oidc: number }> {
  const idp = demoIdpUrls(options.baseUrl);
  const saml = await addConnection(
    t,
    {
      protocol: 'saml',
      organizationId: options.organizationId,
      name: 'Demo IdP',
      settings: { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCerts: [options.keys.idp.cert], spCert: options.keys.sp.cert },
      secrets: { spPrivateKey: options.keys.sp.privateKey },
    },
    options.sealer,
    options.now,
  );
  const oidc = await addConnection(
    t,
    {
      protocol: 'oidc',
      organizationId: options.organizationId,
      name: 'Demo OIDC',
      settings: { issuer: demoOidcIssuer(options.baseUrl), clientId: DEMO_OIDC_CLIENT_ID },
      secrets: { clientSecret: options.keys.oidcClientSecret },
    },
    options.sealer,
    options.now,
  );
  await assignConnection(t, saml, { email: 'sso@demo.test' }, options.now);
  await assignConnection(t, oidc, { email: 'oidc@demo.test' }, options.now);
  return { saml, oidc };
}

/** The demo seed's SSO part for this database: its keys read (or made) now, the rows written by the returned function inside the seed's transaction. */
export async function demoSsoSeeder(
  data: Database,
  options: { baseUrl: string; sealer: Sealer; now: () => number },
): Promise<(t: Queryable) => Promise<unknown>> {
  const now = options.now();
  const keys: DemoSsoKeys = { idp: await demoIdpKeys(data, now), ...(await demoSpKeys(data, now)) };
  return (t) => seedDemoSso(t, { organizationId: 1, baseUrl: options.baseUrl, keys, sealer: options.sealer, now });
}
