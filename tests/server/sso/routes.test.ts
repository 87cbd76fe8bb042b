/**
 * Single sign-on over HTTP, as a browser does it, against a server listening on 127.0.0.1: our SP
 * endpoints (routes/sso.ts) with the demo SAML IdP (routes/devSamlIdp.ts) and the demo OpenID provider
 * (routes/devOidc.ts, oidc-provider) mounted beside them. saml-init's part is ssoStart behind a test
 * route; the host's signIn records who signed in. Also: a tampered SAML response and a user the
 * connection does not cover are refused with a page, never a 500. On SQLite and PostgreSQL.
 */
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/data';
import devOidc from '../../../server/routes/devOidc';
import devSamlIdp from '../../../server/routes/devSamlIdp';
import sso, { ssoStart, SSO_COOKIE, type SsoHost, type SsoIdentity } from '../../../server/routes/sso';
import { addConnection, assignConnection, getConnection } from '../../../server/sso/connections';
import { demoOidcIssuer } from '../../../server/sso/demoOidcProvider';
import { newSigningKeyPair } from '../../../server/sso/keys';
import { freePort } from '../../../scripts/free-port';
import { ENGINES, type TestDatabase } from '../db-engines';
import { action, addDemoIdpConnection, Browser, field, testSealer } from './sso-helpers';

const sealer = testSealer;

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`SSO over HTTP on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let app: FastifyInstance;
    let base: string;
    let samlId: number;
    let oidcId: number;
    const signedIn: SsoIdentity[] = [];
    const logs: string[] = [];

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
      base = `http://127.0.0.1:${await freePort()}`;
      const now = () => Date.now();
      const sp = await newSigningKeyPair('SP');
      samlId = await addDemoIdpConnection(db, { base, organizationId: 1, sp, now: now() });
      oidcId = await addConnection(
        db,
        {
          protocol: 'oidc',
          organizationId: 1,
          name: 'Demo OIDC',
          settings: { issuer: demoOidcIssuer(base), clientId: 'demo-oidc-client' },
          secrets: { clientSecret: 'demo-oidc-secret-0123456789' },
        },
        sealer,
        now(),
      );
      for (const email of ['sso@demo.test', 'oidc@demo.test', 'other@demo.test'])
        await db.run(`INSERT INTO users (uid, email, user_type, organization_id, created_at, updated_at) VALUES (?, ?, 'TECHNICIAN', 1, ?, ?)`, [
          email,
          email,
          now(),
          now(),
        ]);
      await assignConnection(db, samlId, { email: 'sso@demo.test' }, now());
      await assignConnection(db, oidcId, { email: 'oidc@demo.test' }, now());

      const host: SsoHost = {
        data: db,
        now,
        sealer,
        baseUrl: () => base,
        log: (line) => logs.push(line),
        signIn: async (_req, reply, identity) => {
          signedIn.push(identity);
          return reply
            .code(303)
            .header('Location', identity.returnTo ?? '/app/')
            .send();
        },
      };
      app = Fastify();
      await app.register(cookie);
      await app.register(sso, { host });
      await app.register(devSamlIdp, { data: db, sealer, now, baseUrl: base });
      await app.register(devOidc, { data: db, sealer, now, baseUrl: base });
      // What saml-init does for an SSO user (phase 2 wiring): start the round trip, answer the URL.
      app.post<{ Params: { id: string }; Body: { email: string } }>('/test/start/:id', async (req, reply) => {
        const connection = await getConnection(db, Number(req.params.id), sealer);
        if (!connection) return reply.code(404).send();
        return ssoStart(host, connection, req, reply, { staySignedIn: true, returnTo: '/app/tickets', loginHint: req.body.email });
      });
      await app.listen({ port: Number(new URL(base).port), host: '127.0.0.1' });
    }, 60_000);
    afterAll(async () => {
      await app?.close();
      await db?.close();
      await target?.dispose();
    });

    async function start(browser: Browser, id: number, email: string): Promise<string> {
      const res = await browser.go(`/test/start/${id}`, { method: 'POST', body: JSON.stringify({ email }), headers: { 'content-type': 'application/json' } });
      expect(res.status).toBe(200);
      expect(browser.jar.get(SSO_COOKIE)).toMatch(/^[\w-]{32}$/);
      return ((await res.json()) as { url: string }).url;
    }

    async function samlUntilAcs(browser: Browser, email: string) {
      const url = await start(browser, samlId, email);
      const idpPage = await (await browser.go(url)).text();
      expect(idpPage).toContain(`Continue as ${email}`);
      const posted = await (await browser.post(action(idpPage), { request: field(idpPage, 'request'), email: field(idpPage, 'email') })).text();
      expect(action(posted)).toBe(`${base}/sso/saml/${samlId}/acs`);
      return { SAMLResponse: field(posted, 'SAMLResponse'), RelayState: field(posted, 'RelayState') };
    }

    it('signs in a SAML user through the demo IdP (the control)', async () => {
      const browser = new Browser(base);
      const form = await samlUntilAcs(browser, 'sso@demo.test');
      const res = await browser.post(`/sso/saml/${samlId}/acs`, form);
      expect(res.status).toBe(303);
      expect(res.headers.get('location')).toBe('/app/tickets');
      expect(signedIn.at(-1)).toMatchObject({ email: 'sso@demo.test', staySignedIn: true, user: { email: 'sso@demo.test' }, connection: { name: 'Demo IdP' } });
      // The same form posted again: refused, with a page.
      const again = await browser.post(`/sso/saml/${samlId}/acs`, form);
      expect(again.status).toBe(400);
      expect(await again.text()).toContain('already completed');
    });

    it('refuses a tampered SAML response with a page, and a user the connection does not cover', async () => {
      const browser = new Browser(base);
      const form = await samlUntilAcs(browser, 'sso@demo.test');
      const xml = Buffer.from(form.SAMLResponse, 'base64').toString().replaceAll('sso@demo.test', 'oidc@demo.test');
      const tampered = await browser.post(`/sso/saml/${samlId}/acs`, { ...form, SAMLResponse: Buffer.from(xml).toString('base64') });
      expect(tampered.status).toBe(400);
      expect(await tampered.text()).toContain('changed on the way');
      const count = signedIn.length;
      const stranger = await browser.post(`/sso/saml/${samlId}/acs`, await samlUntilAcs(browser, 'other@demo.test'));
      expect(stranger.status).toBe(403);
      expect(await stranger.text()).toContain('other@demo.test cannot sign in through Demo IdP');
      expect(signedIn.length).toBe(count);
    });

    it('serves the SP metadata of a connection', async () => {
      const res = await fetch(`${base}/sso/saml/${samlId}/metadata`);
      expect(res.headers.get('content-type')).toMatch(/samlmetadata\+xml/);
      expect(await res.text()).toContain(`Location="${base}/sso/saml/${samlId}/acs"`);
    });

    it('signs in an OIDC user through the demo OpenID provider (code flow with PKCE, state and nonce)', async () => {
      const browser = new Browser(base);
      const url = new URL(await start(browser, oidcId, 'oidc@demo.test'));
      expect(`${url.origin}${url.pathname}`).toBe(`${demoOidcIssuer(base)}/auth`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('nonce')).toBeTruthy();
      let res = await browser.go(url.href);
      expect(res.status, res.status === 303 ? '' : await res.clone().text()).toBe(303);
      const loginUrl = res.headers.get('location') ?? '';
      const loginPage = await (await browser.go(loginUrl)).text();
      expect(loginPage).toContain('Continue as oidc@demo.test');
      res = await browser.post(action(loginPage), { email: 'oidc@demo.test' });
      // oidc-provider resumes the authorization, then redirects to our callback with the code.
      for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400 && !(res.headers.get('location') ?? '').includes('/sso/oidc/'); hops++)
        res = await browser.go(res.headers.get('location') ?? '');
      const callback = res.headers.get('location') ?? '';
      expect(callback).toMatch(new RegExp(`^${base}/sso/oidc/${oidcId}/callback\\?code=`));
      const done = await browser.go(callback);
      expect(done.status, logs.join('\n')).toBe(303);
      expect(done.headers.get('location')).toBe('/app/tickets');
      expect(signedIn.at(-1)).toMatchObject({ email: 'oidc@demo.test', connection: { name: 'Demo OIDC', protocol: 'oidc' } });
      // The code and state are single use.
      const replay = await browser.go(callback);
      expect(replay.status).toBe(400);
      // Another browser with a stolen callback URL gets nowhere either.
      expect((await new Browser(base).go(callback)).status).toBe(400);
    });
  });
}
