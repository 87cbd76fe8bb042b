/**
 * The operator's day with `npm run admin` (server/admin/tenants.ts, users.ts, tenantSettings.ts), on the
 * run's engine, against the server it manages: a disabled tenant's users are signed out and refused,
 * enabling it gives back exactly those (a user disabled on its own stays so, the control), delete asks
 * for the name; a tenant's own email sender, Twilio account and Duo application are stored sealed and
 * used before the deployment's (another tenant keeps the deployment's: the control); a backup of the
 * SQLite database while it is in use.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin, runAdminCommand } from '../../server/admin/main';
import { tenantSettingsCommand } from '../../server/admin/tenantSettings';
import type { Database } from '../../server/db/data';
import { openSqlite } from '../../server/db/sqlite';
import type { ClaimedDelivery, Sender } from '../../server/delivery/types';
import { createPasswordService } from '../../server/crypto/passwords';
import { CLIENT_ID, SECRET, startDuoDouble } from './duo/duo-double';
import { startTwilioDouble, TWILIO_FROM, TWILIO_SID, TWILIO_TOKEN, type TwilioDouble } from './delivery/twilio-double';
import { login, makeProductionApp, post, sessionCookie, TEST_APP_SECRET, TEST_PASSWORD_COST } from './helpers';
import { newStore, type TestStore } from './test-database';

const PASSWORD = 'Acme-Passw0rd!';
const passwords = createPasswordService(TEST_PASSWORD_COST);
let store: TestStore;
let db: Database;
let env: NodeJS.ProcessEnv;

async function admin(...argv: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env, passwords });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

/** A user of the organisation with the known password, no password change asked. */
async function user(organization: string, email: string, ...more: string[]): Promise<void> {
  expect((await admin('create-user', '--organization', organization, '--email', email, ...more)).code).toBe(0);
  await db.run('UPDATE users SET password_hash = ?, must_set_password = 0 WHERE email = ?', [await passwords.hash(PASSWORD), email]);
}

beforeAll(async () => {
  store = await newStore({ shared: true });
  db = store.open();
  await db.migrate();
  env = { ...(store.options.databaseUrl ? { DATABASE_URL: store.options.databaseUrl } : { DB_PATH: store.options.dbPath }), APP_SECRET: TEST_APP_SECRET };
  expect((await admin('create-tenant', '--name', 'Acme', '--email', 'admin@acme.test', '--no-mfa')).out).toMatch(/organisation 2/);
  await user('2', 'bob@acme.test', '--no-mfa', '--phone', '+14155550123');
  await user('2', 'carol@acme.test', '--no-mfa');
  expect((await admin('create-tenant', '--name', 'Beta', '--email', 'admin@beta.test', '--no-mfa')).out).toMatch(/organisation 3/);
}, 60_000);
afterAll(async () => {
  await db?.close();
  await store?.dispose();
});

describe('tenants and users', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await makeProductionApp({ ...store.options, seed: false, passwordCost: TEST_PASSWORD_COST });
  });
  afterAll(async () => app?.close());

  it('tenants list / show; users list / show', async () => {
    const list = await admin('tenants', 'list');
    expect(list.out).toMatch(/^organisation 2 +"Acme" — 3 user\(s\), 3 active$/m);
    expect(list.out).toMatch(/^organisation 3 +"Beta" — 1 user\(s\), 1 active$/m);
    expect((await admin('tenants', 'show', '--organization', '2')).out).toMatch(/^organisation 2 +"Acme"/);
    expect((await admin('tenants', 'show', '--organization', '9')).code).toBe(3);
    expect((await admin('tenants', 'frobnicate')).code).toBe(2);
    const users = await admin('users', 'list', '--organization', '2');
    expect(users.out.split('\n')).toEqual([
      expect.stringMatching(/^admin@acme\.test +active +TECHNICIAN sysadmin +organisation 2/),
      expect.stringMatching(/^bob@acme\.test +active/),
      expect.stringMatching(/^carol@acme\.test +active/),
      '3 user(s)',
    ]);
    expect((await admin('users', 'show', '--email', 'bob@acme.test')).out).toMatch(
      /second factor: none; passkeys 0; recovery codes left 0\n {2}single sign-on: no; open sessions 0/,
    );
  });

  it('a disabled tenant: its users signed out and refused; enabled again: exactly those back (one disabled on its own stays so)', async () => {
    expect((await admin('users', 'disable', '--email', 'carol@acme.test')).out).toMatch(/carol@acme\.test disabled/);
    const bob = await login(app, 'bob@acme.test', PASSWORD);
    expect(bob.body.resultCode).toBe('SUCCESS');
    const cookie = sessionCookie(bob.res) as string;
    const session = () => app.inject({ url: '/ws/account/session', headers: { cookie: cookie.split(';')[0] as string } });
    expect((await session()).statusCode).toBe(200);

    expect((await admin('tenants', 'disable', '--organization', '2')).out).toBe(
      'organisation 2 disabled: 2 active user(s) disabled and signed out (tenants enable gives them back)',
    );
    expect((await session()).statusCode).toBe(401);
    expect((await login(app, 'bob@acme.test', PASSWORD)).body.resultCode).toBe('APP_USER_NOT_ENABLED');
    expect((await login(app, 'admin@beta.test', PASSWORD)).body.resultCode).not.toBe('APP_USER_NOT_ENABLED');
    expect(await admin('users', 'enable', '--email', 'bob@acme.test')).toMatchObject({ code: 3, err: expect.stringMatching(/organisation 2 is disabled/) });
    expect((await admin('tenants', 'list')).out).toMatch(/"Acme" — 3 user\(s\), 0 active; DISABLED since/);

    expect((await admin('tenants', 'enable', '--organization', '2')).out).toBe('organisation 2 enabled: 2 user(s) active again');
    expect((await login(app, 'bob@acme.test', PASSWORD)).body.resultCode).toBe('SUCCESS');
    expect((await login(app, 'carol@acme.test', PASSWORD)).body.resultCode).toBe('APP_USER_NOT_ENABLED');
    expect((await admin('users', 'enable', '--email', 'carol@acme.test')).out).toBe('carol@acme.test enabled');
    expect((await login(app, 'carol@acme.test', PASSWORD)).body.resultCode).toBe('SUCCESS');
  });

  it('delete asks for the name (or the email) again', async () => {
    await user('3', 'gone@beta.test', '--no-mfa');
    expect(await admin('users', 'delete', '--email', 'gone@beta.test')).toMatchObject({ code: 2, err: expect.stringMatching(/--confirm gone@beta\.test/) });
    expect((await admin('users', 'delete', '--email', 'gone@beta.test', '--confirm', 'GONE@beta.test')).out).toMatch(/gone@beta\.test \(user \d+\) deleted/);
    expect((await login(app, 'gone@beta.test', PASSWORD)).body.resultCode).toBe('AUTHENTICATION_FAILURE');

    await admin('create-tenant', '--name', 'Doomed', '--email', 'admin@doomed.test', '--no-mfa');
    expect(await admin('tenants', 'delete', '--organization', '4')).toMatchObject({ code: 2, err: expect.stringMatching(/--confirm "Doomed"/) });
    expect((await admin('tenants', 'delete', '--organization', '4', '--confirm', 'doomed')).code).toBe(2);
    expect((await admin('tenants', 'delete', '--organization', '4', '--confirm', 'Doomed')).out).toMatch(/organisation 4 \("Doomed"\) deleted: 1 user/);
    expect((await admin('tenants', 'list')).out).not.toMatch(/Doomed/);
  });
});

describe("a tenant's own sender, Twilio account and Duo application", () => {
  let twilio: TwilioDouble;
  let duo: Awaited<ReturnType<typeof startDuoDouble>>;
  let app: FastifyInstance;
  const emails: ClaimedDelivery[] = [];
  const email: Sender = { channel: 'email', name: 'fake', send: async (m) => (emails.push(m), { ok: true, answer: '250 ok' }) };

  const settings = async (secret: string, ...argv: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const command = tenantSettingsCommand(async () => secret);
    // The command as runAdmin runs it, with this run's secret on "standard input".
    const code = await runAdminCommand(command, argv, { out: (l) => out.push(l), err: (l) => err.push(l), env, passwords });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };

  beforeAll(async () => {
    [twilio, duo] = await Promise.all([startTwilioDouble(), startDuoDouble('https://signin.example.test/duo/callback')]);
    expect(
      (
        await settings(
          TWILIO_TOKEN,
          '--organization',
          '2',
          '--mail-from',
          'Acme IT <it@acme.test>',
          '--twilio-account-sid',
          TWILIO_SID,
          '--twilio-auth-token-stdin',
          '--twilio-from',
          TWILIO_FROM,
        )
      ).code,
    ).toBe(0);
    const set = await settings(SECRET, '--organization', '2', '--duo-client-id', CLIENT_ID, '--duo-client-secret-stdin', '--duo-api-host', duo.host);
    expect(set.err).toBe('');
    expect(set.out).toContain(`  texts: its own Twilio account ${TWILIO_SID}, from ${TWILIO_FROM}`);
    expect(set.out).toContain(`  Duo: its own application ${CLIENT_ID} at ${duo.host}`);
    expect(set.out).toContain('  email sender: Acme IT <it@acme.test>');
    for (const email of ['dana@acme.test', 'dee@beta.test']) {
      await user(email.endsWith('acme.test') ? '2' : '3', email);
      const { id } = (await db.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [email])) as { id: number };
      await db.run("INSERT INTO mfa_enrolments (user_id, type, position, created_at) VALUES (?, 'DUO', 0, ?)", [id, Date.now()]);
    }
    app = await makeProductionApp({
      ...store.options,
      seed: false,
      passwordCost: TEST_PASSWORD_COST,
      senders: { email },
      delivery: { maxAttempts: 3, twilioApiBase: twilio.url },
      duoHttpsAgent: duo.agent,
    });
  }, 60_000);
  afterAll(async () => {
    await app?.close();
    await Promise.all([twilio?.close(), duo?.close()]);
  });

  it('stores the credentials sealed: neither secret is in the database in clear', async () => {
    const row = await db.get<{ twilio: string; duo: string; mail_from: string }>(
      'SELECT twilio, duo, mail_from FROM tenant_settings WHERE organization_id = 2',
    );
    expect(row?.mail_from).toBe('Acme IT <it@acme.test>');
    expect(row?.twilio).toMatch(/^enc1:/);
    expect(row?.duo).toMatch(/^enc1:/);
    expect(JSON.stringify(row)).not.toContain(TWILIO_TOKEN);
    expect(JSON.stringify(row)).not.toContain(SECRET);
  });

  it("sends the tenant's emails from its sender, and its texts through its Twilio account", async () => {
    expect((await post(app, '/ws/account/reset-password-init', { email: 'bob@acme.test', verifyBy: 'EMAIL' })).json()).toEqual({ resultCode: 'SUCCESS' });
    expect((await post(app, '/ws/account/reset-password-init', { email: 'admin@beta.test', verifyBy: 'EMAIL' })).json()).toEqual({ resultCode: 'SUCCESS' });
    await expect.poll(() => emails.length, { timeout: 15_000 }).toBe(2);
    expect(emails.find((m) => m.to === 'bob@acme.test')?.from).toBe('Acme IT <it@acme.test>');
    // Control: another tenant's email keeps the deployment's sender.
    expect(emails.find((m) => m.to === 'admin@beta.test')?.from ?? null).toBeNull();

    const text = await post(app, '/ws/account/reset-password-init', { email: 'bob@acme.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    expect(text.json()).toEqual({ resultCode: 'SUCCESS' });
    await expect.poll(() => twilio.texts.length, { timeout: 15_000 }).toBe(1);
    expect(twilio.problems).toEqual([]);
    expect(twilio.texts[0]).toMatchObject({ To: '+14155550123', From: TWILIO_FROM });
  });

  it("prompts the tenant's Duo users with its Duo application; another tenant's get the deployment's (none here: the demo Duo)", async () => {
    const acme = await login(app, 'dana@acme.test', PASSWORD);
    expect(acme.body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO' });
    expect(new URL(acme.body.duoUrl as string).host).toBe(duo.host);
    const beta = await login(app, 'dee@beta.test', PASSWORD);
    expect(beta.body.duoUrl).toMatch(/^\/dev\/duo\?channel=/);
  });

  it('--no-twilio and --no-duo give the deployment’s back', async () => {
    const out = await settings('', '--organization', '2', '--no-twilio', '--no-duo', '--no-mail-from');
    expect(out.out).toContain('  texts: the deployment’s Twilio (SMS_PROVIDER); Duo: the deployment’s (DUO_*)');
    expect(out.out).toContain('  email sender: the deployment’s (MAIL_FROM)');
    expect((await settings('x', '--organization', '2', '--twilio-account-sid', 'nope', '--twilio-auth-token-stdin', '--twilio-from', TWILIO_FROM)).err).toMatch(
      /--twilio-account-sid must be your Account SID/,
    );
  });
});

describe('backup', () => {
  it('SQLite: a consistent copy while an app has the database open, holding its users; PostgreSQL: pg_dump’s job', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-backup-'));
    const app = await makeProductionApp({ ...store.options, seed: false, passwordCost: TEST_PASSWORD_COST });
    try {
      const file = path.join(dir, 'copy.sqlite');
      const copy = await admin('backup', '--to', file);
      if (db.engine === 'postgres') {
        expect(copy).toMatchObject({ code: 2, err: expect.stringMatching(/pg_dump/) });
        return;
      }
      expect(copy.out).toMatch(/copied to .*copy\.sqlite \(\d+ bytes, one consistent snapshot\)/);
      const restored = openSqlite(file);
      try {
        const users = 'SELECT email FROM users ORDER BY email';
        expect(await restored.all(users)).toEqual(await db.all(users));
        expect((await restored.all(users)).length).toBeGreaterThan(3);
      } finally {
        await restored.close();
      }
      expect((await admin('backup', '--to', file)).code).toBe(3);
    } finally {
      await app.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
