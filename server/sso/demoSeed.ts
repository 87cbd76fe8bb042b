/**
 * The demo tenant's single sign-on rows (DEMO-TENANT.md, "Rows for the capabilities being built"):
 * a SAML connection "Demo IdP" to the demo SAML IdP for sso@demo.test, and an OpenID Connect
 * connection "Demo OIDC" to the demo OpenID provider for a new account oidc@demo.test, both in the
 * demo organisation. Phase 2 calls it from the demo seed (db/seed.ts) inside its transaction, after
 * the users exist; `keys` are made before the transaction (key generation is slow, docs/data-layer.md).
 */
import type { Queryable } from '../db/data.js';
import { addConnection, assignConnection, type Sealer } from './connections.js';
import { demoIdpUrls } from './demoSamlIdp.js';
import { demoOidcIssuer } from './demoOidcProvider.js';
import type { KeyPair } from './keys.js';

export const DEMO_OIDC_CLIENT_ID = 'demo-oidc-client';

export interface DemoSsoKeys {
  /** The demo IdP's pair (demoIdpKeys): its certificate is what the SP trusts. */
  idp: KeyPair;
  /** The demo SP's signing pair. */
  sp: KeyPair;
  /** The demo OIDC client's secret (any random string). */
  oidcClientSecret: string;
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
