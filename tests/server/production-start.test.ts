/**
 * A real tenant on a production start (`server/main.ts` without --demo: APP_SECRET, PUBLIC_URL, no dev
 * tools), with email over SMTP to a real listener (smtp-server) and texts through SMS_PROVIDER=twilio
 * to a local double of Twilio's Messages API that checks the request as Twilio documents it (path,
 * HTTP Basic auth, form fields). The tenant is made with the admin command (create-tenant,
 * create-user, sso-add-saml from the IdP's metadata, sso-add-oidc, sso-assign); the demo SAML IdP and
 * the demo OpenID provider run in this test, beside the server on one origin (a small proxy: the
 * server's PUBLIC_URL), so the real protocol code runs on both sides. Proves: a reset email and a
 * reset text arrive; a SAML and an OIDC visitor sign in; a tampered and a replayed assertion are
 * refused (with the untouched one as the control). On SQLite and on PostgreSQL. The queue's kill -9
 * test is tests/server/delivery/kill.test.ts.
 */
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import cookie from '@fastify/cookie';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/main';
import { addOidc } from '../../server/admin/sso';
import type { Database } from '../../server/db/data';
import devOidc from '../../server/routes/devOidc';
import devSamlIdp from '../../server/routes/devSamlIdp';
import { dataKeyFrom, decrypt, encrypt } from '../../server/security/secrets';
import { createPasswordService } from '../../server/crypto/passwords';
import { demoOidcIssuer } from '../../server/sso/demoOidcProvider';
import { demoIdpKeys, demoIdpMetadata } from '../../server/sso/demoSamlIdp';
import { ENGINES, type TestDatabase } from './db-engines';
import { startSmtpListener, type SmtpListener } from './delivery/smtp-listener';
import { startServer, stopServer } from './server-process';
import { startTwilioDouble, TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN, type TwilioDouble } from './delivery/twilio-double';
import { TEST_APP_SECRET, TEST_PASSWORD_COST } from './helpers';
import { action, Browser, field } from './sso/sso-helpers';

const key = dataKeyFrom(TEST_APP_SECRET);
const sealer = { seal: (s: string) => encrypt(key, s), unseal: (s: string) => decrypt(key, s) };

/** One origin for the browser: the demo IdPs (this process) under /dev/saml-idp and /dev/oidc, everything else the server. */
async function startFrontProxy(): Promise<{ url: string; route(server: string, idp: string): void; close(): Promise<void> }> {
  let targets: { server: string; idp: string } | undefined;
  const proxy = http.createServer((req, res) => {
    if (!targets) return void res.writeHead(503).end();
    const to = new URL(/^\/dev\/(saml-idp|oidc)/.test(req.url ?? '') ? targets.idp : targets.server);
    const upstream = http.request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    upstream.on('error', () => res.writeHead(502).end());
    req.pipe(upstream);
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(proxy.address() as net.AddressInfo).port}`,
    route: (server, idp) => (targets = { server, idp }),
    close: () => new Promise((resolve) => proxy.close(() => resolve())),
  };
}

async function until<T>(what: string, probe: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`a real tenant on a production start (${engine.name})`, () => {
    let target: TestDatabase;
    let db: Database;
    let smtp: SmtpListener;
    let twilio: TwilioDouble;
    let front: Awaited<ReturnType<typeof startFrontProxy>>;
    let idp: FastifyInstance;
    let server: Awaited<ReturnType<typeof startServer>> | undefined;
    let dir: string;
    let base: string;
    let samlId = 0;
    let oidcId = 0;

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-production-'));
      [smtp, twilio, front] = await Promise.all([startSmtpListener(), startTwilioDouble(), startFrontProxy()]);
      base = front.url;
      const databaseEnv: Record<string, string> = engine.name === 'postgres' ? { DATABASE_URL: target.location } : { DB_PATH: target.location };
      const adminEnv = { ...databaseEnv, APP_SECRET: TEST_APP_SECRET, PUBLIC_URL: base };
      const passwords = createPasswordService(TEST_PASSWORD_COST);
      const admin = async (...argv: string[]) => {
        const out: string[] = [];
        const err: string[] = [];
        const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: adminEnv, passwords });
        expect(err.join('\n'), argv.join(' ')).toBe('');
        expect(code).toBe(0);
        return out.join('\n');
      };

      // The administrator's part ("First real tenant" in docs/server.md).
      const tenant = await admin('create-tenant', '--name', 'Acme', '--email', 'admin@acme.test');
      const org = /\d+/.exec(tenant)?.[0] ?? '';
      await admin('create-user', '--organization', org, '--email', 'dana@acme.test', '--phone', '+14155550123', '--no-mfa');
      await admin('create-user', '--organization', org, '--email', 'sam@acme.test', '--no-mfa');
      await admin('create-user', '--organization', org, '--email', 'olive@acme.test', '--no-mfa');
      const metadata = path.join(dir, 'idp.xml');
      fs.writeFileSync(metadata, demoIdpMetadata(base, (await demoIdpKeys(db, Date.now())).cert));
      samlId = Number(
        /SAML connection (\d+)/.exec(await admin('sso-add-saml', '--organization', org, '--name', 'Acme SAML', '--idp-metadata-file', metadata))?.[1],
      );
      const oidcOut: string[] = [];
      await addOidc(
        { db, passwords, now: Date.now, env: adminEnv },
        { organization: org, name: 'Acme OIDC', issuer: demoOidcIssuer(base), 'client-id': 'acme-oidc-client', 'client-secret-stdin': true },
        (l) => oidcOut.push(l),
        async () => 'acme-oidc-client-secret-0123456789\n',
      );
      oidcId = Number(/connection (\d+)/.exec(oidcOut.join('\n'))?.[1]);
      await admin('sso-assign', '--connection', String(samlId), '--email', 'sam@acme.test');
      await admin('sso-assign', '--connection', String(oidcId), '--email', 'olive@acme.test');

      // The demo IdPs, on the server's origin through the proxy, reading the connections with the data key of APP_SECRET.
      idp = Fastify();
      await idp.register(cookie);
      await idp.register(devSamlIdp, { data: db, sealer, now: Date.now, baseUrl: base });
      await idp.register(devOidc, { data: db, sealer, now: Date.now, baseUrl: base });
      await idp.listen({ port: 0, host: '127.0.0.1' });

      server = await startServer({
        ...databaseEnv,
        APP_SECRET: TEST_APP_SECRET,
        PUBLIC_URL: base,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Acme sign-in <no-reply@acme.test>',
        SMS_PROVIDER: 'twilio',
        TWILIO_ACCOUNT_SID: TWILIO_SID,
        TWILIO_AUTH_TOKEN: TWILIO_TOKEN,
        TWILIO_FROM,
        TWILIO_API_BASE: twilio.url,
      });
      front.route(server.url, `http://127.0.0.1:${(idp.server.address() as net.AddressInfo).port}`);
    }, 120_000);

    afterAll(async () => {
      await stopServer(server?.child);
      await idp?.close();
      await Promise.all([smtp?.close(), twilio?.close(), front?.close()]);
      await db?.close();
      await target?.dispose();
      if (dir) fs.rmSync(dir, { recursive: true, force: true });
    });

    const call = (browser: Browser, url: string, body: unknown) =>
      browser.go(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json' } });

    it('is a production start: no dev tools, no demo tenant', async () => {
      expect((await fetch(`${base}/dev/outbox`)).status).toBe(404);
      expect(await db.get('SELECT id FROM users WHERE email = ?', ['tech@demo.test'])).toBeUndefined();
    });

    it('emails the reset link over SMTP, in both parts, from MAIL_FROM', { timeout: 30_000 }, async () => {
      const res = await call(new Browser(base), '/ws/account/reset-password-init', { email: 'dana@acme.test', verifyBy: 'EMAIL' });
      expect(await res.json()).toEqual({ resultCode: 'SUCCESS' });
      await smtp.waitFor(1, 15_000);
      const mail = smtp.received.find((m) => m.to.includes('dana@acme.test'));
      expect(mail?.from).toBe('no-reply@acme.test');
      expect(mail?.mail.subject).toContain('password');
      const link = new RegExp(`${base}/resetPassword/[\\w%-]+`).exec(String(mail?.mail.text))?.[0];
      expect(link).toBeTruthy();
      expect(String(mail?.mail.html)).toContain(link);
      // The queue recorded the relay's answer and, outside demo mode, kept no link once it was sent.
      await expect
        .poll(async () => db.get("SELECT status, link, provider FROM deliveries WHERE to_address = 'dana@acme.test'"), { timeout: 10_000 })
        .toMatchObject({ status: 'sent', link: null, provider: 'smtp' });
    });

    it('texts the reset code through Twilio, and the code works', { timeout: 30_000 }, async () => {
      const browser = new Browser(base);
      const res = await call(browser, '/ws/account/reset-password-init', { email: 'dana@acme.test', verifyBy: 'TEXT', phoneDigits: '0123' });
      expect(await res.json()).toEqual({ resultCode: 'SUCCESS' });
      const text = await until('the text', () => twilio.texts.find((t) => t.To === '+14155550123'));
      expect(twilio.problems).toEqual([]);
      expect(text.From).toBe(TWILIO_FROM);
      const code = /\b(\d{6})\b/.exec(text.Body ?? '')?.[1];
      expect(code).toBeTruthy();
      // The code in the text is the one the server checks (in the browser that asked for it).
      const verified = await call(browser, '/ws/account/reset-password-verify', { email: 'dana@acme.test', verificationCode: code });
      expect(((await verified.json()) as { resultCode: string }).resultCode).toBe('SUCCESS');
      // The queue records Twilio's message sid once the answer is in.
      await expect
        .poll(async () => db.get<{ status: string; provider_id: string }>("SELECT status, provider_id FROM deliveries WHERE channel = 'sms'"), {
          timeout: 10_000,
        })
        .toMatchObject({ status: 'sent', provider_id: expect.stringMatching(/^SM/) });
    });

    async function samlUntilAcs(browser: Browser, email: string) {
      const started = await call(browser, '/ws/account/saml-init', { email, staySignedIn: true, returnTo: '/app/tickets' });
      const { url } = (await started.json()) as { url: string };
      const sent = new URL(url);
      expect(`${sent.origin}${sent.pathname}`).toBe(`${base}/dev/saml-idp/sso`);
      expect(sent.searchParams.get('SAMLRequest')).toBeTruthy();
      expect(sent.searchParams.get('Signature')).toBeTruthy();
      const idpPage = await (await browser.go(url)).text();
      expect(idpPage).toContain(`Continue as ${email}`);
      const posted = await (await browser.post(action(idpPage), { request: field(idpPage, 'request'), email: field(idpPage, 'email') })).text();
      expect(action(posted)).toBe(`${base}/sso/saml/${samlId}/acs`);
      return { SAMLResponse: field(posted, 'SAMLResponse'), RelayState: field(posted, 'RelayState') };
    }

    const session = async (browser: Browser) => {
      const res = await browser.go('/ws/account/session');
      return res.status === 200 ? ((await res.json()) as { user: { email: string } }).user.email : res.status;
    };

    it('signs a SAML tenant’s visitor in through the IdP (the control), once', { timeout: 30_000 }, async () => {
      const browser = new Browser(base);
      const form = await samlUntilAcs(browser, 'sam@acme.test');
      const res = await browser.post(`/sso/saml/${samlId}/acs`, form);
      expect(res.status, await res.clone().text()).toBe(303);
      expect(res.headers.get('location')).toBe('/app/tickets');
      expect(await session(browser)).toBe('sam@acme.test');
      const replay = await new Browser(base).post(`/sso/saml/${samlId}/acs`, form);
      expect(replay.status).toBe(400);
    });

    it('refuses a tampered assertion, and signs nobody in', { timeout: 30_000 }, async () => {
      const browser = new Browser(base);
      const form = await samlUntilAcs(browser, 'sam@acme.test');
      const xml = Buffer.from(form.SAMLResponse, 'base64').toString().replaceAll('sam@acme.test', 'dana@acme.test');
      const tampered = await browser.post(`/sso/saml/${samlId}/acs`, { ...form, SAMLResponse: Buffer.from(xml).toString('base64') });
      expect(tampered.status).toBe(400);
      expect(await tampered.text()).toContain('changed on the way');
      expect(await session(browser)).toBe(401);
    });

    it('signs an OIDC tenant’s visitor in (code flow with PKCE)', { timeout: 30_000 }, async () => {
      const browser = new Browser(base);
      const started = await call(browser, '/ws/account/saml-init', { email: 'olive@acme.test' });
      const url = new URL(((await started.json()) as { url: string }).url);
      expect(`${url.origin}${url.pathname}`).toBe(`${demoOidcIssuer(base)}/auth`);
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      let res = await browser.go(url.href);
      const loginPage = await (await browser.go(res.headers.get('location') ?? '')).text();
      expect(loginPage).toContain('Continue as olive@acme.test');
      res = await browser.post(action(loginPage), { email: 'olive@acme.test' });
      for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400 && !(res.headers.get('location') ?? '').includes('/sso/oidc/'); hops++)
        res = await browser.go(res.headers.get('location') ?? '');
      const callback = res.headers.get('location') ?? '';
      expect(callback.startsWith(`${base}/sso/oidc/${oidcId}/callback?`)).toBe(true);
      const done = await browser.go(callback);
      expect(done.status, server?.output()).toBe(303);
      expect(await session(browser)).toBe('olive@acme.test');
    });
  });
}
