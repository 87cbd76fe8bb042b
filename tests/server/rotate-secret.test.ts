/**
 * Rotating APP_SECRET (docs/deploy.md): a populated demo database (TOTP secrets, a TOTP set-up in
 * progress, an emailed code kept for resending, recovery codes, the demo's SAML and OIDC connections,
 * a tenant's Twilio and Duo credentials) is re-sealed by `rotate-secret` under the new secret, resumably
 * (a value already re-sealed is left alone; a second run re-seals nothing). Then, with the new secret
 * alone, the TOTP sign-in, the set-up in progress, a recovery code and both SSO connections work; no
 * sealed value anywhere in the database still opens with the old secret. In between, with
 * APP_SECRET_PREVIOUS set, what the old secret signed (a trusted browser's cookie) stays valid (the
 * control of the read-only previous secret). On the run's engine.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port';
import { runAdmin, runAdminCommand } from '../../server/admin/main';
import { tenantSettingsCommand } from '../../server/admin/tenantSettings';
import type { Database } from '../../server/db/data';
import { SEALED_COLUMNS } from '../../server/db/sealed';
import { dataKeyFrom, decrypt, sealerFromSecrets } from '../../server/security/secrets';
import { createPasswordService } from '../../server/crypto/passwords';
import { client, type Client } from '../security/attack-helpers';
import { CLIENT_ID, SECRET } from './duo/duo-double';
import { TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN } from './delivery/twilio-double';
import { call, totp } from './demo-helpers';
import { makeApp, PASSWORD, TEST_PASSWORD_COST } from './helpers';
import { action, Browser, field } from './sso/sso-helpers';
import { newStore, type TestStore } from './test-database';

const OLD = 'the-old-app-secret-0123456789-abcdefghijklmno';
const NEW = 'the-new-app-secret-9876543210-zyxwvutsrqponml';
const passwords = createPasswordService(TEST_PASSWORD_COST);

// The server's clock: real time (node-saml and openid-client check assertions and ID tokens against it),
// moved on by 30 s for each new TOTP code and set back to real time before each single sign-on.
let clock = Date.now();
let store: TestStore;
let db: Database;
let port: number;
let base: string;
const env = (extra: Record<string, string>): NodeJS.ProcessEnv => ({
  ...(store.options.databaseUrl ? { DATABASE_URL: store.options.databaseUrl } : { DB_PATH: store.options.dbPath }),
  ...extra,
});

async function admin(environment: NodeJS.ProcessEnv, ...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env: environment, passwords });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** An app on the store, listening on the test's port (openid-client reads the demo provider over HTTP). */
async function serve(secrets: { appSecret: string; previousAppSecret?: string }): Promise<FastifyInstance> {
  const app = await makeApp({ ...store.options, ...secrets, publicPort: port, publicUrl: base, now: () => clock });
  await app.listen({ port, host: '127.0.0.1' });
  return app;
}

const password = (browser: Client, email: string) => call(browser, 'login', '/ws/account/login', { email, password: PASSWORD });
/** The same browser (its cookies) talking to another instance. */
const sameBrowser = (browser: Client, app: FastifyInstance) => {
  const moved = client(app);
  for (const [name, value] of browser.cookies) moved.cookies.set(name, value);
  return moved;
};
const nextCode = (key: string) => totp((clock += 30_000), key);

/** Every value of every text column that is sealed ("enc1:…"), with where it is. */
async function sealedValues(): Promise<Array<{ at: string; value: string }>> {
  const columns =
    db.engine === 'sqlite'
      ? (
          await Promise.all(
            (await db.all<{ name: string }>("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")).map(async (t) =>
              (await db.all<{ name: string; type: string }>(`SELECT name, type FROM pragma_table_info('${t.name}')`))
                .filter((c) => c.type.toUpperCase() === 'TEXT')
                .map((c) => ({ table: t.name, column: c.name })),
            ),
          )
        ).flat()
      : await db.all<{ table: string; column: string }>(
          `SELECT table_name AS "table", column_name AS "column" FROM information_schema.columns
           WHERE table_schema = current_schema() AND data_type IN ('text', 'character varying')`,
        );
  const found: Array<{ at: string; value: string }> = [];
  for (const { table, column } of columns)
    for (const row of await db.all<{ v: string }>(`SELECT "${column}" AS v FROM "${table}" WHERE "${column}" LIKE 'enc1:%'`))
      found.push({ at: `${table}.${column}`, value: row.v });
  return found;
}

const opens = (secret: string, value: string) => {
  try {
    decrypt(dataKeyFrom(secret), value);
    return true;
  } catch {
    return false;
  }
};

async function samlSignIn(): Promise<string | number> {
  const browser = new Browser(base);
  const json = (url: string, body: unknown) =>
    browser.go(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: base } });
  const { url } = (await (await json('/ws/account/saml-init', { email: 'sso@demo.test' })).json()) as { url: string };
  const idp = await (await browser.go(url)).text();
  const posted = await (await browser.post(action(idp), { request: field(idp, 'request'), email: field(idp, 'email') })).text();
  const done = await browser.post(action(posted), { SAMLResponse: field(posted, 'SAMLResponse'), RelayState: field(posted, 'RelayState') });
  if (done.status !== 303) return done.status;
  return ((await (await browser.go('/ws/account/session')).json()) as { user: { email: string } }).user.email;
}

async function oidcSignIn(): Promise<string | number> {
  const browser = new Browser(base);
  const started = await browser.go('/ws/account/saml-init', {
    method: 'POST',
    body: JSON.stringify({ email: 'oidc@demo.test' }),
    headers: { 'content-type': 'application/json', origin: base },
  });
  let res = await browser.go(((await started.json()) as { url: string }).url);
  const page = await (await browser.go(res.headers.get('location') ?? '')).text();
  res = await browser.post(action(page), { email: 'oidc@demo.test' });
  for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400 && !(res.headers.get('location') ?? '').includes('/sso/oidc/'); hops++)
    res = await browser.go(res.headers.get('location') ?? '');
  const done = await browser.go(res.headers.get('location') ?? '');
  if (done.status !== 303) return done.status;
  return ((await (await browser.go('/ws/account/session')).json()) as { user: { email: string } }).user.email;
}

describe('rotate-secret on a populated database', () => {
  let totpKey = '';
  let pendingKey = '';
  let userToken = '';
  let recoveryCode = '';
  let trusted: Client;
  let halfway: Client;

  beforeAll(async () => {
    store = await newStore({ shared: true });
    db = store.open();
    port = await freePort();
    base = `http://localhost:${port}`;
    // The demo tenant under the old secret, and what its users leave sealed behind.
    const app = await serve({ appSecret: OLD });
    try {
      // setup@ sets up an authenticator app (its recovery codes shown), then a second set-up stays half done.
      const browser = client(app);
      const setup = await password(browser, 'setup@demo.test');
      totpKey = ((await call(browser, 'configTotp', '/ws/account/config-totp', { userToken: setup.userToken })) as { key: string }).key;
      clock += 30_000;
      const done = await call(browser, 'loginTotp', '/ws/account/login/totp', {
        key: totpKey,
        userToken: setup.userToken,
        code: await totp(clock - 30_000, totpKey),
        secondaryCode: await totp(clock, totpKey),
      });
      expect(done.resultCode).toBe('SUCCESS');
      recoveryCode = ((await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes', {})) as { codes: string[] }).codes[0] as string;
      halfway = client(app);
      const halfDone = await password(halfway, 'setup-nophone@demo.test');
      userToken = halfDone.userToken as string;
      pendingKey = ((await call(halfway, 'configTotp', '/ws/account/config-totp', { userToken })) as { key: string }).key;
      // tech@ trusts this browser ("Don't ask again") and asks for a reset link (its code is kept sealed for resending).
      trusted = client(app);
      const tech = await password(trusted, 'tech@demo.test');
      await call(trusted, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: tech.loginToken, trust: true });
      expect(
        (await call(trusted, 'mfaLogin', '/ws/account/mfa-login', { loginToken: tech.loginToken, code: await nextCode('JBSWY3DPEHPK3PXP') })).resultCode,
      ).toBe('SUCCESS');
      await trusted.get('/ws/account/logout');
      await call(client(app), 'resetPasswordInit', '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
    } finally {
      await app.close();
    }
    // The demo tenant's own Twilio account and Duo application, sealed by the admin command.
    const old = env({ APP_SECRET: OLD });
    const io = { out: () => undefined, err: () => undefined, env: old, passwords };
    expect(
      await runAdminCommand(
        tenantSettingsCommand(async () => TWILIO_TOKEN),
        ['--organization', '1', '--twilio-account-sid', TWILIO_SID, '--twilio-auth-token-stdin', '--twilio-from', TWILIO_FROM],
        io,
      ),
    ).toBe(0);
    expect(
      await runAdminCommand(
        tenantSettingsCommand(async () => SECRET),
        ['--organization', '1', '--duo-client-id', CLIENT_ID, '--duo-client-secret-stdin', '--duo-api-host', 'api-12345678.duosecurity.com'],
        io,
      ),
    ).toBe(0);
  }, 120_000);

  afterAll(async () => {
    await db?.close();
    await store?.dispose();
  });

  it('before: every sealed value opens with the old secret only, and lies in a column rotate-secret knows', async () => {
    const sealed = await sealedValues();
    const places = new Set(sealed.map((s) => s.at));
    for (const at of [
      'mfa_enrolments.secret',
      'login_tokens.pending_secret',
      'verification_codes.sealed_code',
      'sso_connections.secrets',
      'tenant_settings.twilio',
      'tenant_settings.duo',
      'server_secrets.value',
    ])
      expect(places, at).toContain(at);
    expect([...places].filter((at) => !SEALED_COLUMNS.some((c) => `${c.table}.${c.column}` === at))).toEqual([]);
    expect(sealed.every((s) => opens(OLD, s.value) && !opens(NEW, s.value))).toBe(true);
  });

  it('needs both secrets; re-seals everything, leaving alone what a stopped run did already; a second run re-seals nothing', async () => {
    expect(await admin(env({ APP_SECRET: NEW }), 'rotate-secret')).toMatchObject({ code: 2, err: expect.stringMatching(/APP_SECRET_PREVIOUS/) });
    // A run that stopped after the first TOTP secret: that one is under the new secret already.
    const first = await db.get<{ id: number; secret: string }>('SELECT id, secret FROM mfa_enrolments WHERE secret IS NOT NULL ORDER BY id LIMIT 1');
    await db.run('UPDATE mfa_enrolments SET secret = ? WHERE id = ?', [sealerFromSecrets(NEW).seal(decrypt(dataKeyFrom(OLD), first!.secret)), first!.id]);

    const rotating = env({ APP_SECRET: NEW, APP_SECRET_PREVIOUS: OLD });
    const run = await admin(rotating, 'rotate-secret');
    expect(run.err).toBe('');
    expect(run.code).toBe(0);
    const total = (await sealedValues()).length;
    expect(run.out).toMatch(/^mfa_enrolments\.secret +\d+ re-sealed, 1 already under APP_SECRET$/m);
    const resealed = [...run.out.matchAll(/^\S+ +(\d+) re-sealed, (\d+) already/gm)].reduce((n, m) => n + Number(m[1]) + Number(m[2]), 0);
    expect(resealed).toBe(total);
    expect(run.out).toMatch(/every sealed value is under APP_SECRET/);
    const again = await admin(rotating, 'rotate-secret');
    expect([...again.out.matchAll(/^\S+ +(\d+) re-sealed/gm)].map((m) => Number(m[1]))).toEqual(SEALED_COLUMNS.map(() => 0));
    expect((await sealedValues()).every((s) => opens(NEW, s.value) && !opens(OLD, s.value))).toBe(true);
  });

  it('while APP_SECRET_PREVIOUS is set, what the old secret signed stays valid (a trusted browser skips the second factor)', async () => {
    const app = await serve({ appSecret: NEW, previousAppSecret: OLD });
    try {
      const body = await call(sameBrowser(trusted, app), 'login', '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD });
      expect(body.resultCode).toBe('SUCCESS');
    } finally {
      await app.close();
    }
  });

  it('with the new secret alone: TOTP, the set-up in progress, a recovery code and both SSO connections sign in', async () => {
    const app = await serve({ appSecret: NEW });
    try {
      const browser = client(app);
      const body = await password(browser, 'setup@demo.test');
      expect(body.resultCode).toBe('MFA_REQUIRED');
      expect((await call(browser, 'mfaLogin', '/ws/account/mfa-login', { loginToken: body.loginToken, code: await nextCode(totpKey) })).resultCode).toBe(
        'SUCCESS',
      );

      // The set-up left half done under the old secret is finished, in the browser that started it.
      clock += 30_000;
      const finished = await call(sameBrowser(halfway, app), 'loginTotp', '/ws/account/login/totp', {
        key: pendingKey,
        userToken,
        code: await totp(clock - 30_000, pendingKey),
        secondaryCode: await totp(clock, pendingKey),
      });
      expect(finished.resultCode).toBe('SUCCESS');

      const recovery = client(app);
      const mfa = await password(recovery, 'setup@demo.test');
      const used = await call(recovery, 'mfaRecoveryLogin', '/ws/account/mfa-login/recovery-code', { loginToken: mfa.loginToken, recoveryCode });
      expect(used.resultCode).toBe('SUCCESS');

      clock = Date.now();
      expect(await samlSignIn()).toBe('sso@demo.test');
      expect(await oidcSignIn()).toBe('oidc@demo.test');
      // The tenant's credentials open too.
      const shown = await admin(env({ APP_SECRET: NEW }), 'tenant-settings', '--organization', '1');
      expect(shown.out).toContain(`its own Twilio account ${TWILIO_SID}`);
    } finally {
      await app.close();
    }
  });
});
