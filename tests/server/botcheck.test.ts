import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botToken, expectContract, login, makeApp, post } from './helpers';

let app: FastifyInstance;
let clock = Date.now();
beforeAll(async () => { app = await makeApp({ now: () => clock }); });
afterAll(async () => { await app.close(); });

describe('recaptcha escalation', () => {
  it('three failures in a row demand the bot check; a valid token lets the right password through and resets', async () => {
    const email = 'nomfa@demo.test';
    expect((await login(app, email, 'bad-1')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect((await login(app, email, 'bad-2')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect((await login(app, email, 'bad-3')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE', recaptchaRequired: true });
    const state = await post(app, '/ws/account/authentication-state', { email });
    expect(state.json()).toMatchObject({ recaptchaRequired: true });

    // no token, even with the right password
    expect((await login(app, email)).body).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
    // garbage token
    expect((await login(app, email, undefined, { recaptchaToken: 'nope' })).body).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
    // valid token, wrong password: still failing, still required
    expect((await login(app, email, 'bad-4', { recaptchaToken: await botToken(app) })).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE', recaptchaRequired: true });
    // valid token, right password
    expect((await login(app, email, undefined, { recaptchaToken: await botToken(app) })).body).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
    // counter reset
    expect((await post(app, '/ws/account/authentication-state', { email })).json()).toMatchObject({ recaptchaRequired: false });
    expect((await login(app, email, 'bad-5')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
  });

  it('unknown emails escalate the same way (no enumeration)', async () => {
    const email = 'ghost@demo.test';
    for (let i = 0; i < 2; i++) await login(app, email, 'x');
    expect((await login(app, email, 'x')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE', recaptchaRequired: true });
    expect((await login(app, email, 'x')).body).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
  });

  it('captcha-fail@: recaptchaRequired, then HUMAN_VERIFICATION_FAILED even with a valid token', async () => {
    const state = await post(app, '/ws/account/authentication-state', { email: 'captcha-fail@demo.test' });
    expect(state.json()).toEqual({ authState: 'NONE', recaptchaRequired: true });
    expect((await login(app, 'captcha-fail@demo.test')).body).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
    expect((await login(app, 'captcha-fail@demo.test', undefined, { recaptchaToken: await botToken(app) })).body)
      .toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
  });
});

describe('local bot-check tokens', () => {
  const verify = (t: string | undefined) => app.fd.botCheck.verify(t);

  it('issues HMAC-signed tokens that pass once', async () => {
    const res = await post(app, '/ws/bot-check/token', { action: 'login' });
    expectContract('botCheckToken', res.json());
    const { token } = res.json() as { token: string };
    expect(verify(token)).toBe(true);
    expect(verify(token)).toBe(false);
  });

  it('rejects tampered, foreign-purpose and expired tokens', async () => {
    const token = await botToken(app);
    const [body, mac] = token.split('.') as [string, string];
    const forgedBody = Buffer.from(JSON.stringify({ ...JSON.parse(Buffer.from(body, 'base64url').toString()), exp: clock + 1e9 })).toString('base64url');
    expect(verify(`${forgedBody}.${mac}`)).toBe(false);
    expect(verify(app.fd.tokens.sign('idp-request', 60_000))).toBe(false);
    const old = await botToken(app);
    clock += 2 * 60 * 1000 + 1;
    expect(verify(old)).toBe(false);
    expect(verify(await botToken(app))).toBe(true);
  });

  it('validates the action', async () => {
    expect((await post(app, '/ws/bot-check/token', { action: '<script>' })).statusCode).toBe(400);
    expect((await post(app, '/ws/bot-check/token', {})).statusCode).toBe(400);
  });
});
