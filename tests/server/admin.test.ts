/**
 * `npm run admin`: create-tenant, create-user, reset-mfa, unlock and help, on both engines (the
 * command runs on the async data layer), with their exit codes; a tenant created here signs in on
 * the real server; and the command line itself (util.parseArgs, stdin password) as a process.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAdmin } from '../../server/admin/main';
import { temporaryPassword } from '../../server/admin/commands';
import type { Database } from '../../server/db/data';
import { createPasswordService } from '../../server/crypto/passwords';
import { ENGINES, newSqliteDatabase, type TestDatabase } from './db-engines';
import { makeProductionApp, post, TEST_PASSWORD_COST } from './helpers';

const passwords = createPasswordService(TEST_PASSWORD_COST);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function envFor(target: TestDatabase, engine: string): NodeJS.ProcessEnv {
  return engine === 'postgres' ? { DATABASE_URL: target.location } : { DB_PATH: target.location };
}

async function admin(env: NodeJS.ProcessEnv, ...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runAdmin(argv, { out: (l) => out.push(l), err: (l) => err.push(l), env, passwords });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

it('temporary passwords meet the policy and differ', () => {
  const a = temporaryPassword();
  expect(a).toMatch(/^[A-Za-z2-9]{5}(-[A-Za-z2-9]{5}){3}$/);
  expect(temporaryPassword()).not.toBe(a);
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`npm run admin on ${engine.name}`, () => {
    let target: TestDatabase;
    let env: NodeJS.ProcessEnv;
    let db: Database;
    beforeAll(async () => {
      target = await engine.create();
      env = envFor(target, engine.name);
      db = target.open(); // the command migrates the database itself
    });
    afterAll(async () => {
      await db?.close();
      await target?.dispose();
    });

    it('create-tenant: an organisation, its sysadmin with a temporary password to change, and its branded host', async () => {
      const r = await admin(
        env,
        'create-tenant',
        '--name',
        'Acme Corp',
        '--email',
        'Admin@Acme.test',
        '--first-name',
        'Ada',
        '--host',
        'signin.acme.test',
        '--theme',
        'theme-four',
      );
      expect(r.err).toBe('');
      expect(r.code).toBe(0);
      expect(r.out).toMatch(/^tenant "Acme Corp" created: organisation 2$/m);
      expect(r.out).toMatch(/temporary password of admin@acme\.test: [A-Za-z2-9-]{23}$/m);
      expect(r.out).toMatch(/branded host signin\.acme\.test, links in emails to https:\/\/signin\.acme\.test/);
      const user = await db.get<Record<string, unknown>>(
        'SELECT email, first_name, sysadmin, must_set_password, mfa_required, organization_id, company_name, state, user_type FROM users WHERE email = ?',
        ['admin@acme.test'],
      );
      expect(user).toEqual({
        email: 'admin@acme.test',
        first_name: 'Ada',
        sysadmin: 1,
        must_set_password: 1,
        mfa_required: 1,
        organization_id: 2,
        company_name: 'Acme Corp',
        state: 'active',
        user_type: 'TECHNICIAN',
      });
      expect(await db.get('SELECT hostname, is_enabled, theme, browser_name, public_url FROM branding WHERE hostname = ?', ['signin.acme.test'])).toEqual({
        hostname: 'signin.acme.test',
        is_enabled: 1,
        theme: 'theme-four',
        browser_name: 'Acme Corp',
        public_url: 'https://signin.acme.test',
      });
      // A second tenant gets the next number; the same host or email again is refused (3).
      const second = await admin(env, 'create-tenant', '--name', 'Beta', '--email', 'boss@beta.test', '--no-mfa');
      expect(second.code).toBe(0);
      expect(second.out).toMatch(/organisation 3/);
      expect(await admin(env, 'create-tenant', '--name', 'Gamma', '--email', 'g@gamma.test', '--host', 'SIGNIN.acme.test')).toMatchObject({
        code: 3,
        err: 'admin: the host signin.acme.test is branded already',
      });
      expect((await admin(env, 'create-tenant', '--name', 'Delta', '--email', 'ADMIN@acme.test')).code).toBe(3);
      expect(await db.get('SELECT count(*) AS n FROM users')).toEqual({ n: 2 });
    });

    it('create-user: into an existing organisation only; a taken email is a conflict', async () => {
      const r = await admin(
        env,
        'create-user',
        '--organization',
        '2',
        '--email',
        'tech@acme.test',
        '--type',
        'END_USER',
        '--phone',
        '+1 415 555 0123',
        '--no-mfa',
      );
      expect(r).toMatchObject({ code: 0, err: '' });
      expect(r.out).toMatch(/^user tech@acme\.test created in organisation 2/);
      expect(await db.get('SELECT user_type, phone, mfa_required, company_name, sysadmin FROM users WHERE email = ?', ['tech@acme.test'])).toEqual({
        user_type: 'END_USER',
        phone: '+14155550123',
        mfa_required: 0,
        company_name: 'Acme Corp',
        sysadmin: 0,
      });
      expect(await admin(env, 'create-user', '--organization', '99', '--email', 'x@acme.test')).toMatchObject({
        code: 3,
        err: 'admin: there is no organisation 99 (create-tenant makes one)',
      });
      expect((await admin(env, 'create-user', '--organization', '2', '--email', 'TECH@acme.test')).err).toBe(
        'admin: a user with the email tech@acme.test exists already',
      );
    });

    it('reset-mfa removes the methods and the sign-ins waiting for a code; unknown users are a 3', async () => {
      const user = await db.get<{ id: number }>('SELECT id FROM users WHERE email = ?', ['admin@acme.test']);
      const id = user?.id as number;
      await db.run('INSERT INTO mfa_enrolments (user_id, type, position, created_at) VALUES (?, ?, ?, ?)', [id, 'TOTP', 0, 1]);
      await db.run('INSERT INTO mfa_enrolments (user_id, type, position, phone, created_at) VALUES (?, ?, ?, ?, ?)', [id, 'SMSOTP', 1, '+14155550123', 1]);
      await db.run('INSERT INTO login_tokens (token_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
        'lt',
        id,
        'MFA',
        1,
        Date.now() + 60_000,
      ]);
      const other = await db.get<{ id: number }>('SELECT id FROM users WHERE email = ?', ['tech@acme.test']);
      await db.run('INSERT INTO mfa_enrolments (user_id, type, position, created_at) VALUES (?, ?, ?, ?)', [other?.id as number, 'TOTP', 0, 1]);
      // The ways past the methods (issue 28): a trusted browser and recovery codes, of both accounts.
      for (const [who, n] of [
        [id, 1],
        [other?.id as number, 2],
      ] as const) {
        await db.run('INSERT INTO trusted_devices (device_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [`d${n}`, who, 1, Date.now() + 60_000]);
        await db.run('INSERT INTO recovery_codes (user_id, code_hash, created_at) VALUES (?, ?, ?)', [who, `c${n}`, 1]);
      }
      const r = await admin(env, 'reset-mfa', '--email', 'admin@ACME.test');
      expect(r).toMatchObject({ code: 0, out: 'MFA of admin@acme.test reset: 2 method(s) and 0 passkey(s) removed, 1 sign-in(s) waiting for a code ended' });
      expect(await db.get('SELECT count(*) AS n FROM mfa_enrolments WHERE user_id = ?', [id])).toEqual({ n: 0 });
      expect(await db.get('SELECT count(*) AS n FROM trusted_devices WHERE user_id = ? AND revoked_at IS NULL', [id])).toEqual({ n: 0 });
      expect(await db.get('SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?', [id])).toEqual({ n: 0 });
      // Control: another account keeps its method, its trusted browser and its codes.
      expect(await db.get('SELECT count(*) AS n FROM mfa_enrolments WHERE user_id = ?', [other?.id as number])).toEqual({ n: 1 });
      expect(await db.get('SELECT count(*) AS n FROM trusted_devices WHERE user_id = ? AND revoked_at IS NULL', [other?.id as number])).toEqual({ n: 1 });
      expect(await db.get('SELECT count(*) AS n FROM recovery_codes WHERE user_id = ?', [other?.id as number])).toEqual({ n: 1 });
      expect(await admin(env, 'reset-mfa', '--email', 'nobody@acme.test')).toMatchObject({ code: 3 });
    });

    it('tenant-settings shows and sets the days a trusted browser skips the second factor (0: off)', async () => {
      expect(await admin(env, 'tenant-settings', '--organization', '2')).toMatchObject({
        code: 0,
        out: expect.stringContaining('organisation 2:\n  trusted browsers: skip the second factor for 30 day(s) (default)'),
      });
      expect(await admin(env, 'tenant-settings', '--organization', '2', '--trusted-device-days', '7')).toMatchObject({
        code: 0,
        out: expect.stringContaining('  trusted browsers: skip the second factor for 7 day(s)\n'),
      });
      expect(await db.get('SELECT trusted_device_days AS days FROM tenant_settings WHERE organization_id = 2')).toEqual({ days: 7 });
      expect((await admin(env, 'tenant-settings', '--organization', '2', '--trusted-device-days', '0')).out).toContain('  trusted browsers: off\n');
      expect(await admin(env, 'tenant-settings', '--organization', '2', '--trusted-device-days', '366')).toMatchObject({ code: 2 });
      expect(await admin(env, 'tenant-settings', '--organization', '2', '--trusted-device-days', 'ten')).toMatchObject({ code: 2 });
      expect(await admin(env, 'tenant-settings', '--organization', '99')).toMatchObject({ code: 3 });
      expect(await admin(env, 'tenant-settings')).toMatchObject({ code: 2 });
    });

    it("unlock clears the account's failure budgets (also per address) and nobody else's", async () => {
      const user = await db.get<{ id: number }>('SELECT id FROM users WHERE email = ?', ['admin@acme.test']);
      const counter = (scope: string, key: string) =>
        db.run('INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES (?, ?, ?, ?, ?)', [
          scope,
          key,
          Date.now(),
          100,
          Date.now() + 3_600_000,
        ]);
      await counter('login', 'admin@acme.test');
      await counter('login-addr', 'admin@acme.test\n203.0.113.9');
      await counter('reset-addr', 'admin@acme.test\n198.51.100.1');
      await counter('code', String(user?.id));
      await counter('login', 'admin@acme.test.evil'); // a longer email sharing the prefix
      await counter('login-addr', 'admin@acme.test.evil\n203.0.113.9');
      await counter('ip', '203.0.113.9');
      const r = await admin(env, 'unlock', '--email', 'Admin@acme.test');
      expect(r).toMatchObject({ code: 0, out: 'admin@acme.test unlocked: 4 counter(s) cleared' });
      expect((await db.all<{ key: string }>('SELECT key FROM counters ORDER BY key')).map((c) => c.key)).toEqual([
        '203.0.113.9',
        'admin@acme.test.evil',
        'admin@acme.test.evil\n203.0.113.9',
      ]);
      // Unknown emails are counted too: their counters clear; with none, it is a 3.
      await counter('login', 'ghost@acme.test');
      expect(await admin(env, 'unlock', '--email', 'ghost@acme.test')).toMatchObject({
        code: 0,
        out: 'ghost@acme.test unlocked: 1 counter(s) cleared (no account has this email)',
      });
      expect(await admin(env, 'unlock', '--email', 'ghost@acme.test')).toMatchObject({ code: 3 });
    });

    it("passkeys lists an account's passkeys and removes one or all, with the sessions they made; unlock clears their budgets", async () => {
      const user = await db.get<{ id: number }>('SELECT id FROM users WHERE email = ?', ['admin@acme.test']);
      const id = user?.id as number;
      const add = async (credentialId: string, agent: string | null) =>
        (await db.get<{ id: number }>(
          `INSERT INTO passkeys (user_id, credential_id, public_key, aaguid, device_type, user_agent, created_at, last_used_at)
           VALUES (?, ?, 'pk', '00000000-0000-0000-0000-000000000000', 'multiDevice', ?, ?, NULL) RETURNING id`,
          [id, credentialId, agent, Date.UTC(2026, 10, 28, 9, 0)],
        ))!.id;
      const mac = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36';
      const first = await add('cred-1', mac);
      await add('cred-2', null);
      await db.run('INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at, passkey_id) VALUES (?, ?, 1, ?, ?, ?)', [
        'made-by-cred-1',
        id,
        Date.now() + 60_000,
        Date.now(),
        first,
      ]);
      const listed = await admin(env, 'passkeys', '--email', 'Admin@acme.test');
      expect(listed.code).toBe(0);
      expect(listed.out.split('\n')).toEqual([
        'passkeys of admin@acme.test: 2',
        expect.stringMatching(/^ {2}#\d+ {2}added 2026-11-28 09:00 UTC, never used, browser unknown, synced$/),
        `  #${first}  added 2026-11-28 09:00 UTC, never used, Chrome on macOS, synced`,
      ]);
      expect(await admin(env, 'passkeys', '--email', 'admin@acme.test', '--remove', 'x1')).toMatchObject({ code: 2 });
      expect(await admin(env, 'passkeys', '--email', 'admin@acme.test', '--remove', '1', '--remove-all')).toMatchObject({ code: 2 });
      expect(await admin(env, 'passkeys', '--email', 'nobody@acme.test')).toMatchObject({ code: 3 });
      expect(await admin(env, 'passkeys', '--email', 'admin@acme.test', '--remove', '999999')).toMatchObject({ code: 3 });
      const removed = await admin(env, 'passkeys', '--email', 'admin@acme.test', '--remove', String(first));
      expect(removed).toMatchObject({
        code: 0,
        out: expect.stringMatching(/^1 passkey\(s\) of admin@acme.test removed[\s\S]*passkeys of admin@acme.test: 1\n {2}#\d+ /),
      });
      expect(await db.get('SELECT count(*) AS n FROM sessions WHERE passkey_id = ?', [first])).toEqual({ n: 0 });
      await db.run("INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES ('passkey-account', ?, ?, 31, ?)", [
        String(id),
        Date.now(),
        Date.now() + 3600_000,
      ]);
      await db.run("INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES ('passkey-credential', ?, ?, 11, ?)", [
        `${id}:passkeys:${first}`,
        Date.now(),
        Date.now() + 3600_000,
      ]);
      expect(await admin(env, 'unlock', '--email', 'admin@acme.test')).toMatchObject({ code: 0, out: 'admin@acme.test unlocked: 2 counter(s) cleared' });
      expect(await admin(env, 'passkeys', '--email', 'admin@acme.test', '--remove-all')).toMatchObject({
        code: 0,
        out: expect.stringMatching(/passkeys of admin@acme.test: 0$/),
      });
    });
  });
}

describe('npm run admin: the command line', () => {
  let target: TestDatabase;
  beforeAll(async () => {
    target = await newSqliteDatabase();
  });
  afterAll(async () => {
    await target.dispose();
  });

  it('help lists the commands and exits 0; mistakes exit 2 with the reason and the usage', async () => {
    const env = { DB_PATH: target.location };
    const help = await admin(env, 'help');
    expect(help.code).toBe(0);
    for (const name of ['create-tenant', 'create-user', 'reset-mfa', 'passkeys', 'unlock', 'help']) expect(help.out).toContain(`  ${name}`);
    expect((await admin(env)).code).toBe(0);
    expect(await admin(env, 'help', 'unlock')).toMatchObject({ code: 0, out: 'usage: npm run admin -- unlock --email <email>' });
    expect(await admin(env, 'drop-everything')).toMatchObject({ code: 2, err: expect.stringMatching(/^admin: unknown command "drop-everything"/) });
    expect(await admin(env, 'unlock', '--mail', 'a@b.test')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/Unknown option '--mail'[\s\S]*usage: npm run admin -- unlock/),
    });
    expect(await admin(env, 'unlock')).toMatchObject({ code: 2, err: 'admin: --email is required' });
    expect(await admin(env, 'unlock', '--email', 'not-an-email')).toMatchObject({
      code: 2,
      err: 'admin: --email must be an email address, not "not-an-email"',
    });
    expect(await admin(env, 'create-tenant', '--email', 'a@b.test')).toMatchObject({ code: 2, err: 'admin: --name is required: the organisation' });
    expect(await admin(env, 'create-tenant', '--name', 'X', '--email', 'a@b.test', '--theme', 'theme-one')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/add --host/),
    });
    expect(await admin(env, 'create-user', '--organization', 'two', '--email', 'a@b.test')).toMatchObject({ code: 2 });
    expect(await admin(env, 'create-user', '--organization', '2', '--email', 'a@b.test', '--phone', '12')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/--phone/),
    });
  });

  it('a bad DATABASE_URL exits 2; a database that does not answer exits 1', async () => {
    expect(await admin({ DATABASE_URL: 'mysql://db/x' }, 'unlock', '--email', 'a@b.test')).toMatchObject({
      code: 2,
      err: expect.stringMatching(/^admin: DATABASE_URL must start with postgres/),
    });
    const down = await admin({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/frontdoor' }, 'unlock', '--email', 'a@b.test');
    expect(down.code).toBe(1);
    expect(down.err).toMatch(/^admin: unlock failed on PostgreSQL at 127\.0\.0\.1:1\/frontdoor: /);
  });

  it('as a process: --password-stdin sets the password, and the tenant signs in on the real server', async () => {
    const run = (args: string[], input: string) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [path.join(ROOT, 'node_modules/tsx/dist/cli.mjs'), 'server/admin/main.ts', ...args], {
          cwd: ROOT,
          env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', DB_PATH: target.location },
        });
        let out = '';
        child.stdout.on('data', (d) => (out += String(d)));
        child.stderr.on('data', (d) => (out += String(d)));
        child.on('exit', (code) => resolve({ code, out }));
        child.stdin.end(input);
      });
    const password = 'Acme-Passw0rd!';
    const r = await run(['create-tenant', '--name', 'Acme', '--email', 'owner@acme.test', '--no-mfa', '--password-stdin'], `${password}\n`);
    expect(r.out).toMatch(/tenant "Acme" created: organisation 2/);
    expect(r.out).not.toMatch(/temporary password/);
    expect(r.code).toBe(0);
    const weak = await run(['create-user', '--organization', '2', '--email', 'weak@acme.test', '--password-stdin'], 'short\n');
    expect(weak.code).toBe(2);

    const app = await makeProductionApp({ dbPath: target.location, seed: false });
    try {
      const res = await post(app, '/ws/account/login', { email: 'owner@acme.test', password });
      expect(res.json()).toMatchObject({ resultCode: 'SUCCESS' });
      const wrong = await post(app, '/ws/account/login', { email: 'owner@acme.test', password: 'Wrong-Passw0rd!' });
      expect(wrong.json()).not.toMatchObject({ resultCode: 'SUCCESS' });
    } finally {
      await app.close();
    }
  }, 60_000);
});
