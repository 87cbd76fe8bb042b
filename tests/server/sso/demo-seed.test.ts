/**
 * The demo tenant's SSO rows (server/sso/demoSeed.ts, seeded with the demo tenant by app.ts): "Demo IdP"
 * (SAML) for sso@demo.test and "Demo OIDC" for oidc@demo.test, whose authState then says SSO with
 * that name; the SAML connection trusts the demo IdP's certificate.
 */
import { expect, it } from 'vitest';
import { getConnection } from '../../../server/sso/connections';
import { demoIdpKeys } from '../../../server/sso/demoSamlIdp';
import { seedDemoSso } from '../../../server/sso/demoSeed';
import { newSigningKeyPair } from '../../../server/sso/keys';
import { openRunDatabase } from '../test-database';

it('connects sso@demo.test to the demo SAML IdP and oidc@demo.test to the demo OpenID provider', async () => {
  const db = await openRunDatabase();
  const sealer = { seal: (s: string) => `x${s}`, unseal: (s: string) => s.slice(1) };
  for (const email of ['sso@demo.test', 'oidc@demo.test'])
    await db.run(`INSERT INTO users (uid, email, user_type, organization_id, created_at, updated_at) VALUES (?, ?, 'TECHNICIAN', 1, 0, 0)`, [email, email]);
  const keys = { idp: await demoIdpKeys(db, Date.now()), sp: await newSigningKeyPair('demo SP'), oidcClientSecret: 'demo-secret' };
  const ids = await db.tx((t) => seedDemoSso(t, { organizationId: 1, baseUrl: 'http://localhost:8080', keys, sealer, now: Date.now() }));
  expect(await db.all('SELECT email, sso_state, sso_idp_name, sso_connection_id FROM users ORDER BY email')).toEqual([
    { email: 'oidc@demo.test', sso_state: 'CONFIGURED', sso_idp_name: 'Demo OIDC', sso_connection_id: ids.oidc },
    { email: 'sso@demo.test', sso_state: 'CONFIGURED', sso_idp_name: 'Demo IdP', sso_connection_id: ids.saml },
  ]);
  const saml = await getConnection(db, ids.saml, sealer);
  expect(saml?.protocol === 'saml' && saml.settings).toMatchObject({ idpSsoUrl: 'http://localhost:8080/dev/saml-idp/sso', idpCerts: [keys.idp.cert] });
  const oidc = await getConnection(db, ids.oidc, sealer);
  expect(oidc?.protocol === 'oidc' && oidc.settings).toEqual({ issuer: 'http://localhost:8080/dev/oidc', clientId: 'demo-oidc-client' });
  await db.dispose();
}, 30_000);
