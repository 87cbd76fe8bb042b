import Fastify, { type FastifyInstance } from 'fastify';
import notImplemented from '../../server/routes/notImplemented';
import { createPasswordService } from '../../server/crypto/passwords';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, expectContract, login, makeApp, post, send, sessionCookie } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp({ publicPort: 9123 });
});
afterAll(async () => {
  await app.close();
});

describe('authentication-state', () => {
  const state = async (email: string) => {
    const res = await post(app, '/ws/account/authentication-state', { email });
    expect(res.statusCode).toBe(200);
    expectContract('authenticationState', res.json());
    return res.json() as Record<string, unknown>;
  };
  it('SSO with the IdP name for sso@', async () => {
    expect(await state('sso@demo.test')).toEqual({ authState: 'SSO', idpName: 'Demo IdP', recaptchaRequired: false });
  });
  it('SSO_NOT_CONFIGURED for sso-broken@', async () => {
    expect((await state('SSO-Broken@demo.test')).authState).toBe('SSO_NOT_CONFIGURED');
  });
  it('NONE for password users and unknown emails alike', async () => {
    expect(await state('tech@demo.test')).toEqual({ authState: 'NONE', recaptchaRequired: false });
    expect(await state('nobody@demo.test')).toEqual({ authState: 'NONE', recaptchaRequired: false });
  });
  it('recaptchaRequired for captcha-fail@', async () => {
    expect((await state('captcha-fail@demo.test')).recaptchaRequired).toBe(true);
  });
});

describe('text with U+0000 (security/nulGuard.ts)', () => {
  it('is a 400 VALIDATION in the body, the query and the path, on either engine; the same request without it is answered', async () => {
    for (const [url, payload] of [
      ['/ws/account/login', { email: 'nomfa@demo.test\u0000', password: 'x' }],
      ['/ws/account/authentication-state', { email: '\u0000' }],
    ] as const) {
      const res = await post(app, url, payload);
      expect(res.statusCode, url).toBe(400);
      expect(res.json()).toMatchObject({ error: 'VALIDATION' });
    }
    expect((await app.inject({ url: '/ws/account/duo-channel/abc%00def' })).statusCode).toBe(400);
    expect((await app.inject({ url: '/dev/outbox?to=%00' })).statusCode).toBe(400);
    // Control: without the NUL the same calls are answered.
    expect((await post(app, '/ws/account/authentication-state', { email: 'nomfa@demo.test' })).statusCode).toBe(200);
    expect((await app.inject({ url: '/ws/account/duo-channel/abcdef' })).statusCode).toBe(404);
  });
});

describe('login: every demo-tenant row', () => {
  it('wrong password and unknown email give the same AUTHENTICATION_FAILURE', async () => {
    const a = await login(app, 'tech@demo.test', 'wrong-password');
    const b = await login(app, 'nobody-at-all@demo.test');
    expect(a.body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect(b.body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect(sessionCookie(a.res)).toBeUndefined();
  });

  it('state codes are revealed only after the correct password', async () => {
    for (const email of [
      'disabled@demo.test',
      'suspended@demo.test',
      'inactive@demo.test',
      'blocked-ip@demo.test',
      'moved@demo.test',
      'expired@demo.test',
      'newpass@demo.test',
      'sso@demo.test',
      'sms-region@demo.test',
    ]) {
      expect((await login(app, email, 'Wrong-Passw0rd!')).body, email).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    }
  });

  it.each([
    ['disabled@demo.test', 'APP_USER_NOT_ENABLED'],
    ['suspended@demo.test', 'ACCOUNT_SUSPENDED'],
    ['inactive@demo.test', 'ACCOUNT_NOT_ACTIVATED'],
    ['blocked-ip@demo.test', 'IP_ADDRESS_NOT_ALLOWED'],
    ['sso@demo.test', 'SSO_REQUIRED'],
    ['sms-region@demo.test', 'INVALID_COUNTRY_REGION'],
  ])('%s -> %s', async (email, code) => {
    const { body, res } = await login(app, email);
    expect(body).toEqual({ resultCode: code });
    expect(sessionCookie(res)).toBeUndefined();
  });

  it('moved@ -> ACCOUNT_MOVED with the url on the server port', async () => {
    expect((await login(app, 'moved@demo.test')).body).toEqual({ resultCode: 'ACCOUNT_MOVED', url: 'http://127.0.0.1:9123/login?moved=1' });
  });

  it('expired@ -> TRIAL_EXPIRED with the account manager and a fresh session key', async () => {
    const a = (await login(app, 'expired@demo.test')).body;
    const b = (await login(app, 'expired@demo.test')).body;
    expect(a).toMatchObject({ resultCode: 'TRIAL_EXPIRED', accountManagerName: 'Alex Morgan', accountManagerEmail: 'alex.morgan@demo.test' });
    expect(a.expiredTrialSessionKey).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(b.expiredTrialSessionKey).not.toBe(a.expiredTrialSessionKey);
    expect(await count(app, 'SELECT count(*) AS n FROM expired_trial_sessions')).toBeGreaterThanOrEqual(2);
  });

  it('newpass@ -> SETUP_PASSWORD with a stored verification code', async () => {
    const { body } = await login(app, 'newpass@demo.test');
    expect(body.resultCode).toBe('SETUP_PASSWORD');
    expect(body.verificationCode).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    const row = await app.fd.data.get<{ purpose: string }>("SELECT purpose FROM verification_codes WHERE purpose = 'SETUP_PASSWORD'");
    expect(row?.purpose).toBe('SETUP_PASSWORD');
  });

  it('tech@ -> MFA_REQUIRED TOTP with a 10-minute login token', async () => {
    const before = Date.now();
    const { body, res } = await login(app, 'tech@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP'] });
    expect(body.loginToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    expect(sessionCookie(res)).toBeUndefined();
    const row = (await app.fd.data.get<{ expires_at: number }>(
      "SELECT expires_at, purpose FROM login_tokens WHERE purpose = 'MFA' ORDER BY created_at DESC LIMIT 1",
    ))!;
    expect(row.expires_at - before).toBeGreaterThanOrEqual(10 * 60 * 1000 - 50);
    expect(row.expires_at - before).toBeLessThanOrEqual(10 * 60 * 1000 + 5000);
  });

  it('multi@ -> MFA_REQUIRED TOTP, can switch to SMS', async () => {
    expect((await login(app, 'multi@demo.test')).body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP', 'SMSOTP'] });
  });

  it('sms@ -> MFA_REQUIRED SMSOTP and a 6-digit code in the outbox', async () => {
    const { body } = await login(app, 'sms@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP', available_mfa: ['SMSOTP'] });
    const outbox = (await app.inject({ url: '/dev/outbox?to=%2B14155550123' })).json() as { channel: string; to: string; code: string; text: string }[];
    expect(outbox[0]).toMatchObject({ channel: 'sms', to: '+14155550123' });
    expect(outbox[0]!.code).toMatch(/^\d{6}$/);
    expect(outbox[0]!.text).toContain(outbox[0]!.code);
  });

  it('duo@ -> MFA_REQUIRED DUO with a /dev/duo url', async () => {
    const { body } = await login(app, 'duo@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO', available_mfa: ['DUO'] });
    expect(String(body.duoUrl)).toMatch(/^\/dev\/duo\?/);
    expect(body.duoChannelId).toBeTruthy();
  });

  it('setup@ -> SETUP_MFA with userToken, phone and all methods', async () => {
    const { body } = await login(app, 'setup@demo.test');
    expect(body).toMatchObject({ resultCode: 'SETUP_MFA', phoneNumber: '+14155550188', available_mfa: ['U2F_TOKEN', 'TOTP', 'DUO', 'SMSOTP'] });
    expect(body.userToken).toMatch(/^[A-Za-z0-9_-]{40,}$/);
  });

  it('setup-nophone@ -> SETUP_MFA without phoneNumber', async () => {
    const { body } = await login(app, 'setup-nophone@demo.test');
    expect(body.resultCode).toBe('SETUP_MFA');
    expect(body).not.toHaveProperty('phoneNumber');
    expect(body.userToken).toBeTruthy();
  });

  it('nomfa@ -> SUCCESS TECHNICIAN with a session cookie', async () => {
    const { body, res } = await login(app, 'nomfa@demo.test');
    expect(body).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    expect(sessionCookie(res)).toBeDefined();
  });

  it('user@ -> SUCCESS END_USER', async () => {
    const { body, res } = await login(app, 'User@Demo.test');
    expect(body).toEqual({ resultCode: 'SUCCESS', userType: 'END_USER', passkeyOffer: 'OFFER' });
    expect(sessionCookie(res)).toBeDefined();
  });

  it('sso-broken@ with its password -> SSO_NOT_CONFIGURED', async () => {
    expect((await login(app, 'sso-broken@demo.test')).body).toEqual({ resultCode: 'SSO_NOT_CONFIGURED' });
  });

  it('invited@ (no password until activation) cannot sign in', async () => {
    expect((await login(app, 'invited@demo.test')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
  });

  it('empty email / password answer 400 with the field', async () => {
    const a = await post(app, '/ws/account/login', { email: '  ', password: 'x' });
    expect(a.statusCode).toBe(400);
    expect(a.json()).toEqual({ error: 'EMPTY_FIELD', message: 'Email field can not be empty', field: 'email' });
    const b = await post(app, '/ws/account/login', { email: 'tech@demo.test', password: '' });
    expect(b.json()).toEqual({ error: 'EMPTY_FIELD', message: 'Password field can not be empty', field: 'password' });
  });
});

describe('saml-init and the demo IdP', () => {
  // /dev/idp is the demo IdP of SSO users without a connection: sso@demo.test as it was before its
  // SAML connection (the connections themselves: tests/server/demo-sso.test.ts).
  beforeAll(async () => {
    await app.fd.data.run("UPDATE users SET sso_connection_id = NULL WHERE email = 'sso@demo.test'");
  });

  it('gives non-SSO emails SSO_NOT_CONFIGURED', async () => {
    for (const email of ['tech@demo.test', 'sso-broken@demo.test', 'nobody@demo.test']) {
      const res = await post(app, '/ws/account/saml-init', { email, staySignedIn: false, returnTo: '', brandingHostname: 'localhost' });
      expect(res.json()).toEqual({ resultCode: 'SSO_NOT_CONFIGURED' });
    }
  });

  it('sends an SSO user without a connection to /dev/idp, whose button signs in and redirects', async () => {
    const res = await post(app, '/ws/account/saml-init', { email: 'sso@demo.test', staySignedIn: true, returnTo: '/app/tickets?x=1' });
    expectContract('samlInit', res.json());
    const url = (res.json() as { url: string }).url;
    expect(url).toMatch(/^\/dev\/idp\?request=/);
    const page = await app.inject({ url });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Continue as sso@demo.test');
    const request = decodeURIComponent(url.split('request=')[1]!);
    // Bound to the browser that called saml-init: another client's post is refused and spends nothing.
    const elsewhere = await app.inject({
      method: 'POST',
      url: '/dev/idp',
      payload: `request=${encodeURIComponent(request)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(sessionCookie(elsewhere)).toBeUndefined();
    const done = await send(app, {
      method: 'POST',
      url: '/dev/idp',
      payload: `request=${encodeURIComponent(request)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/app/tickets?x=1');
    const cookie = sessionCookie(done);
    expect(cookie).toMatch(/Max-Age=2592000/);
    // single use
    const again = await send(app, {
      method: 'POST',
      url: '/dev/idp',
      payload: `request=${encodeURIComponent(request)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(again.statusCode).toBe(400);
  });

  it('ignores an off-site returnTo and rejects a forged request', async () => {
    const res = await post(app, '/ws/account/saml-init', { email: 'sso@demo.test', returnTo: '//evil.example/x' });
    const request = decodeURIComponent((res.json() as { url: string }).url.split('request=')[1]!);
    const done = await send(app, { method: 'POST', url: '/dev/idp', payload: { request }, headers: {} });
    expect(done.statusCode).toBe(303);
    expect(done.headers.location).toBe('/app/');
    const [body, mac] = request.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(body, 'base64url').toString()) as Record<string, unknown>;
    const otherBody = Buffer.from(JSON.stringify({ ...claims, uid: 1 })).toString('base64url');
    const forged = await app.inject({ url: `/dev/idp?request=${encodeURIComponent(`${otherBody}.${mac}`)}` });
    expect(forged.statusCode, forged.body).toBe(400);
  });
});

describe('contract operations without a route', () => {
  it('answer 501 NOT_IMPLEMENTED (JSON, never a 404 or a crash)', async () => {
    // A fresh Fastify with the real plugin and a contract holding one operation nobody implements.
    const bare = Fastify({ logger: false });
    bare.decorate('fd', { contract: { operations: new Map([['futureCall', { operation: 'futureCall', method: 'POST', path: '/ws/future/{id}' }]]) } } as never);
    await bare.register(notImplemented);
    const res = await bare.inject({ method: 'POST', url: '/ws/future/7', payload: {} });
    expect(res.statusCode).toBe(501);
    expect(res.json()).toMatchObject({ error: 'NOT_IMPLEMENTED' });
    await bare.close();
  });

  it('the operations the skeleton needed are implemented now (no 501)', async () => {
    const res = await post(app, '/ws/account/activate', { activationKey: 'DEMO-DIVISION' });
    expect(res.statusCode).not.toBe(501);
    const get = await app.inject({ url: '/account/register/DEMO-TRIAL' });
    expect(get.statusCode).toBe(200);
  });
});

describe('no enumeration by timing', () => {
  it('unknown emails and accounts without a password still run a password hash', async () => {
    const calls: (string | null | undefined)[] = [];
    const original = app.fd.passwords.verify;
    app.fd.passwords.verify = async (pw, stored) => {
      calls.push(stored);
      return original(pw, stored);
    };
    try {
      await login(app, 'nobody-timing@demo.test');
      await login(app, 'invited@demo.test');
      await login(app, 'nomfa@demo.test', 'wrong');
    } finally {
      app.fd.passwords.verify = original;
    }
    expect(calls).toHaveLength(3);
    expect(calls[0]).toBeUndefined();
    expect(calls[1]).toBeNull();
    expect(String(calls[2])).toMatch(/^\$argon2id\$/);
  });

  it('verify(pw, missing hash) costs a real argon2id hash', async () => {
    const passwords = createPasswordService({ memoryCost: 8192, timeCost: 1, parallelism: 1 });
    await passwords.verify('warm-up', undefined);
    const t0 = performance.now();
    expect(await passwords.verify('x', undefined)).toBe(false);
    expect(await passwords.verify('x', null)).toBe(false);
    expect(performance.now() - t0).toBeGreaterThan(0.5);
  });
});
