/**
 * Recovery codes and trusted browsers on the server (routes/accountRecovery.ts): codes shown once
 * after a first factor is set up, each single use, guessed at most 5 times per sign-in and 20 times
 * an hour per account, hashed at rest; "Don't ask again on this device" skips the second factor until
 * a password reset, "sign out everywhere" or an MFA reset. Every refusal has its control.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { client, type Client } from '../security/attack-helpers';
import { resetMfa } from '../../server/admin/commands';
import { demoAppPerFile, T0, totp } from './demo-helpers';
import { count, expectContract, PASSWORD } from './helpers';

let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

type Body = Record<string, unknown>;

async function call(browser: Client, operation: string, url: string, payload: unknown = {}): Promise<Body> {
  const res = await browser.post(url, payload);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Body;
  expectContract(operation, body);
  return body;
}

async function password(browser: Client, email: string): Promise<Body> {
  return call(browser, 'login', '/ws/account/login', { email, password: PASSWORD });
}

/** setup@ sets up an authenticator app as its first factor in this browser; the codes it is then shown. */
async function setUpFirstFactor(browser: Client): Promise<string[]> {
  const setup = await password(browser, 'setup@demo.test');
  expect(setup.resultCode).toBe('SETUP_MFA');
  const { key } = await call(browser, 'configTotp', '/ws/account/config-totp', { userToken: setup.userToken });
  const done = await call(browser, 'loginTotp', '/ws/account/login/totp', {
    key,
    userToken: setup.userToken,
    code: await totp(clock - 30_000, key as string),
    secondaryCode: await totp(clock, key as string),
  });
  expect(done.resultCode).toBe('SUCCESS');
  const shown = await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes', {});
  expect(shown).toMatchObject({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
  return shown.codes as string[];
}

/** A password sign-in of setup@ in a new browser, up to its second factor: the login token. */
async function loginToken(browser = client(app)): Promise<{ browser: Client; token: string }> {
  const body = await password(browser, 'setup@demo.test');
  expect(body.resultCode).toBe('MFA_REQUIRED');
  return { browser, token: body.loginToken as string };
}

async function recover(browser: Client, token: string, recoveryCode: string): Promise<Body> {
  return call(browser, 'mfaRecoveryLogin', '/ws/account/mfa-login/recovery-code', { loginToken: token, recoveryCode });
}

const subjects = async (to: string) =>
  ((await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as { subject?: string; text: string }[]).map((m) => m.subject);

describe('recovery codes', () => {
  it('are shown once, in the browser that set up the first factor, and only then', async () => {
    const browser = client(app);
    const codes = await setUpFirstFactor(browser);
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$/);
    expect(await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes')).toEqual({ resultCode: 'NOT_ALLOWED' });
    // Another signed-in browser of the account has no grant.
    const other = await loginToken();
    expect(await call(other.browser, 'recoveryCodesCreate', '/ws/account/recovery-codes')).toEqual({ resultCode: 'NOT_ALLOWED' });
  });

  it('are stored as keyed hashes, never in clear', async () => {
    const codes = await setUpFirstFactor(client(app));
    const rows = await app.fd.data.all<{ code_hash: string }>('SELECT code_hash FROM recovery_codes');
    expect(rows).toHaveLength(10);
    const dump = JSON.stringify(rows);
    for (const code of codes) {
      expect(dump).not.toContain(code);
      expect(dump).not.toContain(code.replaceAll('-', ''));
    }
    expect(rows.every((r) => /^[0-9a-f]{64}$/.test(r.code_hash))).toBe(true);
  });

  it('sign in once each at /mfa, tell the owner, say how many are left; a used code is refused', async () => {
    const codes = await setUpFirstFactor(client(app));
    const first = await loginToken();
    const done = await first.browser.post('/ws/account/mfa-login/recovery-code', {
      loginToken: first.token,
      recoveryCode: codes[0]!.toLowerCase().replaceAll('-', ' '),
    });
    expect(done.json()).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', recoveryCodesLeft: 9 });
    expect(first.browser.cookies.get('fd_session')).toBeDefined();
    expect(await subjects('setup@demo.test')).toContain('A recovery code was used to sign in to your Front Door account');
    const again = await loginToken();
    expect(await recover(again.browser, again.token, codes[0]!)).toEqual({ resultCode: 'INVALID_RECOVERY_CODE' });
    // Control: another code of the set works.
    expect(await recover(again.browser, again.token, codes[1]!)).toMatchObject({ resultCode: 'SUCCESS', recoveryCodesLeft: 8 });
  });

  it('one code sent many times at once signs in once', async () => {
    const codes = await setUpFirstFactor(client(app));
    // One live login token per account: the same request, five times at once.
    const { browser, token } = await loginToken();
    const answers = await Promise.all(Array.from({ length: 5 }, () => recover(browser, token, codes[2]!)));
    expect(answers.filter((a) => a.resultCode === 'SUCCESS')).toHaveLength(1);
    expect(
      answers.filter((a) => a.resultCode !== 'SUCCESS').every((a) => ['INVALID_RECOVERY_CODE', 'INVALID_LOGIN_TOKEN'].includes(a.resultCode as string)),
    ).toBe(true);
    expect(await count(app, "SELECT count(*) AS n FROM sessions WHERE user_id = (SELECT id FROM users WHERE email = 'setup@demo.test')")).toBe(2);
  });

  it('guessing: 5 tries per sign-in, then the token is spent; 20 wrong an hour per account, then even a right code is refused', async () => {
    const codes = await setUpFirstFactor(client(app));
    const { browser, token } = await loginToken();
    for (let i = 0; i < 5; i++) expect(await recover(browser, token, 'AAAA-BBBB-CCCC')).toEqual({ resultCode: 'INVALID_RECOVERY_CODE' });
    expect(await recover(browser, token, codes[0]!)).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
    // 15 more wrong codes over three more sign-ins reach the account's 20.
    for (let s = 0; s < 3; s++) {
      const next = await loginToken();
      for (let i = 0; i < 5; i++) await recover(next.browser, next.token, `ZZZZ-ZZZZ-ZZ${s}${i}`);
    }
    const locked = await loginToken();
    expect(await recover(locked.browser, locked.token, codes[0]!)).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
    // Control: an hour later the right code signs in.
    clock += 3600_000 + 1000;
    const later = await loginToken();
    expect((await recover(later.browser, later.token, codes[0]!)).resultCode).toBe('SUCCESS');
  });

  it('a login token from another browser is unknown', async () => {
    const codes = await setUpFirstFactor(client(app));
    const { token } = await loginToken();
    expect(await recover(client(app), token, codes[0]!)).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
  });

  it('after a recovery-code sign-in a new set can be shown once; it voids the old set', async () => {
    const codes = await setUpFirstFactor(client(app));
    const { browser, token } = await loginToken();
    await recover(browser, token, codes[0]!);
    const fresh = await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes');
    expect(fresh.resultCode).toBe('SUCCESS');
    const next = await loginToken();
    expect(await recover(next.browser, next.token, codes[1]!)).toEqual({ resultCode: 'INVALID_RECOVERY_CODE' });
    expect((await recover(next.browser, next.token, (fresh.codes as string[])[0]!)).resultCode).toBe('SUCCESS');
  });

  it('the grant lasts 10 minutes', async () => {
    const codes = await setUpFirstFactor(client(app));
    const { browser, token } = await loginToken();
    await recover(browser, token, codes[0]!);
    clock += 10 * 60_000 + 1;
    expect(await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes')).toEqual({ resultCode: 'NOT_ALLOWED' });
  });
});

describe('trusted browsers', () => {
  /** tech@ signs in with its TOTP in this browser, asking (or not) to be trusted. */
  async function signInWithTotp(browser: Client, trust: boolean): Promise<Body> {
    const body = await password(browser, 'tech@demo.test');
    expect(body.resultCode).toBe('MFA_REQUIRED');
    expect(await call(browser, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: body.loginToken, trust })).toEqual({
      resultCode: 'SUCCESS',
      days: 30,
    });
    clock += 30_000;
    const done = await call(browser, 'mfaLogin', '/ws/account/mfa-login', { loginToken: body.loginToken, code: await totp(clock) });
    expect(done.resultCode).toBe('SUCCESS');
    return done;
  }

  async function signOut(browser: Client, all = false): Promise<void> {
    await browser.get(`/ws/account/logout${all ? '?sessions=all' : ''}`);
  }

  it('"Don\'t ask again on this device" sets a signed __Host- cookie; that browser then skips the second factor', async () => {
    const browser = client(app);
    const res = await browser.post('/ws/account/login', { email: 'tech@demo.test', password: PASSWORD });
    const token = (res.json() as Body).loginToken as string;
    await call(browser, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: token, trust: true });
    const done = await browser.post('/ws/account/mfa-login', { loginToken: token, code: await totp(clock) });
    const cookie = ([done.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith('__Host-fd_trust='));
    expect(cookie).toMatch(/; Max-Age=2592000; Path=\/; HttpOnly; Secure; SameSite=Strict$/);
    await signOut(browser);
    expect(await password(browser, 'tech@demo.test')).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    // Control: a browser without the cookie is asked for the second factor.
    expect((await password(client(app), 'tech@demo.test')).resultCode).toBe('MFA_REQUIRED');
  });

  it('nothing is trusted unless asked, nor for another account, nor with a forged or expired cookie', async () => {
    const untrusted = client(app);
    await signInWithTotp(untrusted, false);
    await signOut(untrusted);
    expect(untrusted.cookies.has('__Host-fd_trust')).toBe(false);
    expect((await password(untrusted, 'tech@demo.test')).resultCode).toBe('MFA_REQUIRED');

    const trusted = client(app);
    await signInWithTotp(trusted, true);
    await signOut(trusted);
    // The cookie names tech@: multi@ (same TOTP secret) is still asked.
    expect((await password(trusted, 'multi@demo.test')).resultCode).toBe('MFA_REQUIRED');
    const forged = client(app);
    const value = trusted.cookies.get('__Host-fd_trust')!;
    forged.cookies.set('__Host-fd_trust', `${value.slice(0, -2)}AA`);
    expect((await password(forged, 'tech@demo.test')).resultCode).toBe('MFA_REQUIRED');
    // Control: the real cookie, then 31 days later it has expired.
    expect((await password(trusted, 'tech@demo.test')).resultCode).toBe('SUCCESS');
    clock += 31 * 24 * 3600_000;
    expect((await password(trusted, 'tech@demo.test')).resultCode).toBe('MFA_REQUIRED');
  });

  it('a password reset, "sign out everywhere" and an MFA reset each revoke it', async () => {
    const revokers: [string, (browser: Client) => Promise<void>][] = [
      ['sign out everywhere', (browser) => signOut(browser, true)],
      [
        'password reset',
        async () => {
          const res = await client(app).post('/ws/account/reset-password-init', { email: 'tech@demo.test', verifyBy: 'EMAIL' });
          expect(res.statusCode).toBe(200);
          const link = ((await app.inject({ method: 'GET', url: '/dev/outbox?to=tech@demo.test' })).json() as { link?: string }[]).find((m) =>
            m.link?.includes('/resetPassword/'),
          )!.link!;
          const commit = await client(app).post('/ws/account/reset-password-commit', { password: 'New-Passw0rd!x', verificationCode: link.split('/').pop() });
          expect(commit.statusCode).toBe(200);
        },
      ],
      ['MFA reset', async () => void (await resetMfa({ db: app.fd.data, passwords: app.fd.passwords, now: () => clock }, 'tech@demo.test'))],
    ];
    for (const [what, revoke] of revokers) {
      await app.inject({ method: 'POST', url: '/dev/reset' });
      const browser = client(app);
      await signInWithTotp(browser, true);
      await signOut(browser);
      expect((await password(browser, 'tech@demo.test')).resultCode, `${what}: trusted before`).toBe('SUCCESS');
      await revoke(browser);
      const after = await browser.post('/ws/account/login', { email: 'tech@demo.test', password: what === 'password reset' ? 'New-Passw0rd!x' : PASSWORD });
      expect((after.json() as Body).resultCode, what).toBe(what === 'MFA reset' ? 'SETUP_MFA' : 'MFA_REQUIRED');
    }
  });

  it('a trusted browser never skips setting up a first factor (no method left)', async () => {
    const browser = client(app);
    await signInWithTotp(browser, true);
    await signOut(browser);
    expect((await password(browser, 'tech@demo.test')).resultCode).toBe('SUCCESS');
    await app.fd.data.run("DELETE FROM mfa_enrolments WHERE user_id = (SELECT id FROM users WHERE email = 'tech@demo.test')");
    await signOut(browser);
    expect((await password(browser, 'tech@demo.test')).resultCode).toBe('SETUP_MFA');
  });

  it("the number of days is the tenant's: 7 days, or 0 to turn it off", async () => {
    await app.fd.data.run('INSERT INTO tenant_settings (organization_id, trusted_device_days, updated_at) VALUES (1, 7, 0)');
    const browser = client(app);
    const body = await password(browser, 'tech@demo.test');
    expect(await call(browser, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: body.loginToken, trust: true })).toEqual({
      resultCode: 'SUCCESS',
      days: 7,
    });
    const done = await browser.post('/ws/account/mfa-login', { loginToken: body.loginToken, code: await totp(clock) });
    expect(([done.headers['set-cookie']].flat() as string[]).find((c) => c.startsWith('__Host-fd_trust='))).toContain('Max-Age=604800');
    await app.fd.data.run('UPDATE tenant_settings SET trusted_device_days = 0');
    await signOut(browser);
    expect((await password(browser, 'tech@demo.test')).resultCode).toBe('MFA_REQUIRED');
  });

  it("a recovery-code sign-in can trust the browser too; the trust call needs the token's own browser", async () => {
    const codes = await setUpFirstFactor(client(app));
    const { browser, token } = await loginToken();
    expect(await call(client(app), 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: token, trust: true })).toEqual({
      resultCode: 'INVALID_LOGIN_TOKEN',
    });
    await call(browser, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: token, trust: true });
    await recover(browser, token, codes[0]!);
    await signOut(browser);
    expect((await password(browser, 'setup@demo.test')).resultCode).toBe('SUCCESS');
  });
});
