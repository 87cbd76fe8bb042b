/**
 * SAML 2.0 end to end, in process: our SP (server/sso/saml.ts, @node-saml/node-saml) sends a signed
 * AuthnRequest to the demo IdP (server/sso/demoSamlIdp.ts), which checks its signature and answers a
 * signed assertion that the SP accepts once. Then what an attacker would try: a tampered, unsigned,
 * replayed (also twice at once), expired, wrong-audience or wrong-recipient assertion, another
 * browser, a response signed by another key. On SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/data';
import { getConnection, type SamlConnection } from '../../../server/sso/connections';
import { buildSamlResponse, demoIdpKeys, demoIdpUrls, readAuthnRequest } from '../../../server/sso/demoSamlIdp';
import { newSigningKeyPair, type KeyPair } from '../../../server/sso/keys';
import { finishSaml, spMetadata, spUrls, startSaml } from '../../../server/sso/saml';
import { ENGINES, POSTGRES_REQUIRED, POSTGRES_URL, type TestDatabase } from '../db-engines';
import { addDemoIdpConnection, testSealer } from './sso-helpers';

const BASE = 'https://signin.acme.test';
const sealer = testSealer;

it('PostgreSQL is there when npm test asks for it', () => {
  if (POSTGRES_REQUIRED) expect(POSTGRES_URL).toBeTruthy();
});

let sp: KeyPair;
let stranger: KeyPair;
beforeAll(async () => {
  [sp, stranger] = await Promise.all([newSigningKeyPair('SP of test'), newSigningKeyPair('Not the IdP')]);
}, 30_000);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`SAML on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let connection: SamlConnection;
    let idpKeys: KeyPair;
    const now = () => Date.now();

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
      idpKeys = await demoIdpKeys(db, now());
      const id = await addDemoIdpConnection(db, { base: BASE, organizationId: 7, sp, now: now() });
      connection = (await getConnection(db, id, sealer)) as SamlConnection;
    }, 30_000);
    afterAll(async () => {
      await db?.close();
      await target?.dispose();
    });
    beforeEach(async () => {
      await db.run('DELETE FROM sso_requests');
      await db.run('DELETE FROM used_tokens');
    });

    /** saml-init → the IdP reads the request → its (optionally altered) response, as the browser would post it. */
    async function roundTrip(options: { nonce?: string; email?: string; response?: Partial<Parameters<typeof buildSamlResponse>[0]> } = {}) {
      const url = new URL(
        await startSaml(connection, {
          data: db,
          now,
          baseUrl: BASE,
          browserNonce: options.nonce ?? 'browser-1',
          staySignedIn: true,
          returnTo: '/app/tickets',
          loginHint: 'sso@demo.test',
        }),
      );
      const request = await readAuthnRequest(url.search.slice(1), db, sealer, BASE);
      const SAMLResponse = buildSamlResponse({
        keys: idpKeys,
        baseUrl: BASE,
        spEntityId: spUrls(connection.id, BASE).entityId,
        acsUrl: request.acsUrl,
        inResponseTo: request.id,
        email: options.email ?? request.loginHint ?? '',
        now: now(),
        ...options.response,
      });
      return { url, request, body: { SAMLResponse, RelayState: request.relayState } };
    }
    const finish = (body: { SAMLResponse: string; RelayState: string }, nonce = 'browser-1') =>
      finishSaml(connection, body, { data: db, now, baseUrl: BASE, browserNonce: nonce });

    it('sends a signed AuthnRequest to the IdP and accepts its signed assertion once (the control)', async () => {
      const { url, request, body } = await roundTrip();
      expect(`${url.origin}${url.pathname}`).toBe(demoIdpUrls(BASE).ssoUrl);
      expect(url.searchParams.get('SigAlg')).toBe('http://www.w3.org/2001/04/xmldsig-more#rsa-sha256');
      expect(url.searchParams.get('Signature')).toBeTruthy();
      expect(url.searchParams.get('RelayState')).toMatch(/^[\w-]{22}$/);
      expect(request.acsUrl).toBe(`${BASE}/sso/saml/${connection.id}/acs`);
      expect(await finish(body)).toEqual({
        ok: true,
        email: 'sso@demo.test',
        nameId: 'sso@demo.test',
        staySignedIn: true,
        returnTo: '/app/tickets',
        sessionIndex: expect.any(String),
      });
      expect(await finish(body)).toMatchObject({ ok: false, reason: 'STATE_UNKNOWN' });
    });

    it('refuses a request the SP did not sign, or signed with another key (IdP side)', async () => {
      const url = new URL(await startSaml(connection, { data: db, now, baseUrl: BASE, browserNonce: 'b', staySignedIn: false }));
      const unsigned = new URLSearchParams(url.search);
      unsigned.delete('Signature');
      await expect(readAuthnRequest(unsigned.toString(), db, sealer, BASE)).rejects.toThrow('not signed');
      const forged = new URLSearchParams(url.search);
      forged.set('RelayState', 'somethingElse');
      await expect(readAuthnRequest(forged.toString(), db, sealer, BASE)).rejects.toThrow('signature of this sign-in request is wrong');
    });

    it('refuses a tampered assertion (the email changed after signing)', async () => {
      const { body } = await roundTrip();
      const xml = Buffer.from(body.SAMLResponse, 'base64').toString().replaceAll('sso@demo.test', 'admin@demo.test');
      expect(await finish({ ...body, SAMLResponse: Buffer.from(xml).toString('base64') })).toMatchObject({
        ok: false,
        reason: 'TAMPERED',
        message: expect.stringContaining('changed on the way'),
      });
    });

    it('refuses an unsigned assertion and one signed by a key the connection does not trust', async () => {
      expect(await finish((await roundTrip({ response: { sign: false } })).body)).toMatchObject({ ok: false, reason: 'UNSIGNED' });
      expect(await finish((await roundTrip({ response: { keys: stranger } })).body)).toMatchObject({ ok: false, reason: 'TAMPERED' });
    });

    it('refuses a replayed assertion, also when two instances race with it', async () => {
      const { body } = await roundTrip();
      // Racing: the same response and state posted twice at once: one sign-in at most.
      const [a, b] = await Promise.all([finish(body), finish(body)]);
      expect([a.ok, b.ok].filter(Boolean)).toHaveLength(1);
      // Replayed later under a fresh round trip's RelayState (a stolen response): refused.
      const fresh = await roundTrip();
      expect(await finish({ SAMLResponse: body.SAMLResponse, RelayState: fresh.body.RelayState })).toMatchObject({ ok: false, reason: 'REPLAYED' });
    });

    it('refuses an expired assertion, and accepts one from an IdP whose clock is 30 s off', async () => {
      const expired = await finish((await roundTrip({ response: { now: Date.now() - 10 * 60_000, lifetimeMs: 5 * 60_000 } })).body);
      expect(expired, JSON.stringify(expired)).toMatchObject({ ok: false, reason: 'EXPIRED' });
      expect(await finish((await roundTrip({ response: { now: Date.now() + 30_000 } })).body)).toMatchObject({ ok: true });
    });

    it('refuses an assertion for another audience or another recipient', async () => {
      expect(await finish((await roundTrip({ response: { audience: 'https://other.example/sp' } })).body)).toMatchObject({
        ok: false,
        reason: 'WRONG_AUDIENCE',
      });
      expect(await finish((await roundTrip({ response: { recipient: 'https://evil.example/acs' } })).body)).toMatchObject({
        ok: false,
        reason: 'WRONG_RECIPIENT',
      });
    });

    it('refuses a response brought to another browser, and an unknown RelayState', async () => {
      const { body } = await roundTrip({ nonce: 'victim' });
      expect(await finish(body, 'attacker')).toMatchObject({ ok: false, reason: 'OTHER_BROWSER' });
      expect(await finish({ ...body, RelayState: 'x'.repeat(22) })).toMatchObject({ ok: false, reason: 'STATE_UNKNOWN' });
    });

    it('publishes SP metadata with the entity ID, the ACS URL and the signing certificate', () => {
      const xml = spMetadata(connection, BASE, db, now);
      expect(xml).toContain(`entityID="${BASE}/sso/saml/${connection.id}/metadata"`);
      expect(xml).toContain(`Location="${BASE}/sso/saml/${connection.id}/acs"`);
      expect(xml).toContain(sp.cert.split('\n')[1]);
    });
  });
}
