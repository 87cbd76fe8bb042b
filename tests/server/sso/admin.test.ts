/**
 * `npm run admin -- sso-…` on both engines: a tenant's SAML connection from the IdP's metadata (SP key
 * pair made and sealed with APP_SECRET), its OIDC connection (secret from stdin), listing, assigning
 * users (who then see authState SSO with the connection's name), removing; and the refusals.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../../server/admin/main';
import { addOidc } from '../../../server/admin/sso';
import type { Database } from '../../../server/db/data';
import { dataKeyFrom, decrypt } from '../../../server/security/secrets';
import { createPasswordService } from '../../../server/crypto/passwords';
import { getConnection } from '../../../server/sso/connections';
import { demoIdpMetadata } from '../../../server/sso/demoSamlIdp';
import { newSigningKeyPair } from '../../../server/sso/keys';
import { ENGINES, type TestDatabase } from '../db-engines';
import { TEST_APP_SECRET, TEST_PASSWORD_COST } from '../helpers';

const passwords = createPasswordService(TEST_PASSWORD_COST);
const key = dataKeyFrom(TEST_APP_SECRET);
const sealer = { seal: () => '', unseal: (s: string) => decrypt(key, s) };

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`admin sso commands on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let env: NodeJS.ProcessEnv;
    let dir: string;
    const run = async (...argv: string[]) => {
      const out: string[] = [];
      const err: string[] = [];
      const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env, passwords });
      return { code, out: out.join('\n'), err: err.join('\n') };
    };

    beforeAll(async () => {
      target = await engine.create();
      env = {
        ...(engine.name === 'postgres' ? { DATABASE_URL: target.location } : { DB_PATH: target.location }),
        APP_SECRET: TEST_APP_SECRET,
        PUBLIC_URL: 'https://signin.acme.test',
      };
      db = target.open();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-sso-admin-'));
      const idp = await newSigningKeyPair('Acme IdP');
      fs.writeFileSync(path.join(dir, 'idp.xml'), demoIdpMetadata('https://idp.acme.test', idp.cert));
      expect((await run('create-tenant', '--name', 'Acme', '--email', 'admin@acme.test')).code).toBe(0);
      expect((await run('create-user', '--organization', '2', '--email', 'dana@acme.test')).code).toBe(0);
    }, 30_000);
    afterAll(async () => {
      fs.rmSync(dir, { recursive: true, force: true });
      await db?.close();
      await target?.dispose();
    });

    it('adds a SAML connection from the IdP metadata and prints what the IdP needs', async () => {
      const r = await run('sso-add-saml', '--organization', '2', '--name', 'Acme Okta', '--idp-metadata-file', path.join(dir, 'idp.xml'));
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toContain('SAML connection 1 "Acme Okta" added to organisation 2 (IdP https://idp.acme.test/dev/saml-idp/metadata)');
      expect(r.out).toContain('https://signin.acme.test/sso/saml/1/metadata');
      expect(r.out).toContain('ACS URL (HTTP-POST) https://signin.acme.test/sso/saml/1/acs');
      const row = await db.get<{ secrets: string; settings: string }>('SELECT secrets, settings FROM sso_connections WHERE id = 1');
      expect(row?.secrets).toMatch(/^enc1:/);
      expect(row?.secrets).not.toContain('PRIVATE KEY');
      const connection = await getConnection(db, 1, sealer);
      expect(connection?.protocol === 'saml' && connection.secrets.spPrivateKey).toContain('-----BEGIN PRIVATE KEY-----');
      expect(connection?.protocol === 'saml' && connection.settings.idpSsoUrl).toBe('https://idp.acme.test/dev/saml-idp/sso');
    });

    it('adds an OIDC connection with the secret from stdin, and prints the redirect URI', async () => {
      const out: string[] = [];
      await addOidc(
        { db, passwords, now: Date.now, env },
        { organization: '2', name: 'Acme Entra', issuer: 'https://login.acme.test/v2.0', 'client-id': 'abc', 'client-secret-stdin': true },
        (l) => out.push(l),
        async () => 's3cret-value\n',
      );
      expect(out.join('\n')).toContain('register this redirect URI at the provider: https://signin.acme.test/sso/oidc/2/callback');
      const connection = await getConnection(db, 2, sealer);
      expect(connection?.protocol === 'oidc' && connection.secrets.clientSecret).toBe('s3cret-value');
    });

    it('assigns users, lists, and removes (the users go back to passwords)', async () => {
      expect((await run('sso-assign', '--connection', '1', '--email', 'dana@acme.test')).out).toBe('1 user(s) now sign in through connection 1');
      expect(await db.get('SELECT sso_state, sso_idp_name, sso_connection_id FROM users WHERE email = ?', ['dana@acme.test'])).toEqual({
        sso_state: 'CONFIGURED',
        sso_idp_name: 'Acme Okta',
        sso_connection_id: 1,
      });
      expect((await run('sso-assign', '--connection', '2', '--all')).out).toBe('2 user(s) now sign in through connection 2');
      const list = await run('sso-list', '--organization', '2');
      expect(list.out).toMatch(/^1\tsaml\torganisation 2\t"Acme Okta"\t0 user\(s\)\tIdP https:\/\/idp\.acme\.test/m);
      expect(list.out).toMatch(/^2\toidc\torganisation 2\t"Acme Entra"\t2 user\(s\)\tissuer https:\/\/login\.acme\.test\/v2\.0; redirect URI/m);
      // email_verified: required by default; a connection may waive it (stored with it), and require it again.
      expect((await getConnection(db, 2))?.settings).not.toHaveProperty('acceptUnverifiedEmail');
      expect((await run('sso-set-oidc', '--connection', '2', '--email-verified', 'waived')).out).toContain('connection 2: email_verified waived');
      expect((await getConnection(db, 2))?.settings).toMatchObject({ acceptUnverifiedEmail: true, clientId: 'abc' });
      expect((await run('sso-list', '--organization', '2')).out).toMatch(/^2\toidc\t.*; email_verified waived$/m);
      expect((await run('sso-set-oidc', '--connection', '2', '--email-verified', 'required')).out).toContain('connection 2: email_verified required');
      expect((await getConnection(db, 2))?.settings).toEqual({ issuer: 'https://login.acme.test/v2.0', clientId: 'abc' });
      expect(await run('sso-set-oidc', '--connection', '2', '--email-verified', 'maybe')).toMatchObject({
        code: 2,
        err: expect.stringContaining('--email-verified takes required'),
      });
      expect(await run('sso-set-oidc', '--connection', '1', '--email-verified', 'waived')).toMatchObject({
        code: 3,
        err: expect.stringContaining('connection 1 is SAML'),
      });
      expect((await run('sso-remove', '--connection', '2')).out).toContain('2 user(s) sign in with a password again');
      expect(await db.get('SELECT sso_state, sso_connection_id FROM users WHERE email = ?', ['dana@acme.test'])).toEqual({
        sso_state: 'NONE',
        sso_connection_id: null,
      });
    });

    it('refuses with a clear line and an exit code', async () => {
      expect(await run('sso-add-saml', '--organization', '2', '--name', 'X')).toMatchObject({
        code: 2,
        err: expect.stringContaining('give --idp-metadata-file, or all of'),
      });
      expect(await run('sso-add-saml', '--organization', '99', '--name', 'X', '--idp-metadata-file', path.join(dir, 'idp.xml'))).toMatchObject({
        code: 3,
        err: 'admin: there is no organisation 99 (create-tenant makes one)',
      });
      expect(await run('sso-add-saml', '--organization', '2', '--name', 'Acme Okta', '--idp-metadata-file', path.join(dir, 'idp.xml'))).toMatchObject({
        code: 3,
        err: expect.stringContaining('has a connection named "Acme Okta" already'),
      });
      fs.writeFileSync(path.join(dir, 'bad.xml'), '<html/>');
      expect(await run('sso-add-saml', '--organization', '2', '--name', 'Y', '--idp-metadata-file', path.join(dir, 'bad.xml'))).toMatchObject({
        code: 2,
        err: expect.stringContaining('not SAML metadata'),
      });
      expect(await run('sso-assign', '--connection', '1')).toMatchObject({ code: 2 });
      expect(await run('sso-assign', '--connection', '1', '--email', 'nobody@acme.test')).toMatchObject({
        code: 3,
        err: 'admin: no user nobody@acme.test in organisation 2',
      });
      expect(await run('sso-remove', '--connection', '42')).toMatchObject({ code: 3, err: 'admin: no SSO connection 42' });
      const noSecret = { ...env, APP_SECRET: '' };
      const out: string[] = [];
      const code = await runAdmin(['sso-add-saml', '--organization', '2', '--name', 'Z', '--idp-metadata-file', path.join(dir, 'idp.xml')], {
        out: (l) => out.push(l),
        err: (l) => out.push(l),
        env: noSecret,
        passwords,
      });
      expect({ code, out }).toEqual({ code: 2, out: [expect.stringContaining('APP_SECRET is required')] });
    });
  });
}
