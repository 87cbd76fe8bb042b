import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { botToken, expectContract, login, makeApp, post } from './helpers';

let app: FastifyInstance;
let clock = Date.now();
beforeAll(async () => {
  app = await makeApp({ now: () => clock });
});
afterAll(async () => {
  await app.close();
});

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
    expect((await login(app, email, 'bad-4', { recaptchaToken: await botToken(app) })).body).toEqual({
      resultCode: 'AUTHENTICATION_FAILURE',
      recaptchaRequired: true,
    });
    // valid token, right password
    expect((await login(app, email, undefined, { recaptchaToken: await botToken(app) })).body).toEqual({
      resultCode: 'SUCCESS',
      userType: 'TECHNICIAN',
      passkeyOffer: 'OFFER',
    });
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
    expect((await login(app, 'captcha-fail@demo.test', undefined, { recaptchaToken: await botToken(app) })).body).toEqual({
      resultCode: 'HUMAN_VERIFICATION_FAILED',
      recaptchaRequired: true,
    });
  });
});

describe('ALTCHA proof-of-work tokens', () => {
  const verify = (t: string | undefined, action: 'login' | 'samlInit' | 'resetPasswordInit' = 'login') => app.fd.botCheck.verify(t, action);

  it('a challenge is signed, bound to its action and short-lived; a solution passes once', async () => {
    const res = await post(app, '/ws/bot-check/challenge', { action: 'login' });
    expectContract('botCheckChallenge', res.json());
    const challenge = res.json() as { parameters: { algorithm: string; data: { action: string }; expiresAt: number } };
    expect(challenge.parameters).toMatchObject({ algorithm: 'SHA-256', data: { action: 'login' } });
    expect(challenge.parameters.expiresAt * 1000 - clock).toBeLessThanOrEqual(2 * 60 * 1000);
    const token = await botToken(app, 'login');
    expect(await verify(token)).toBe(true);
    expect(await verify(token)).toBe(false);
  });

  it('rejects other actions, tampered, unsolved, re-encoded and expired solutions', async () => {
    expect(await verify(await botToken(app, 'register'))).toBe(false);
    expect(await verify(await botToken(app, 'login'), 'resetPasswordInit')).toBe(false);
    const token = await botToken(app);
    const payload = JSON.parse(Buffer.from(token, 'base64').toString()) as {
      challenge: { parameters: { data: { action: string } } };
      solution: { counter: number; derivedKey: string };
    };
    const retarget = structuredClone(payload);
    retarget.challenge.parameters.data.action = 'samlInit';
    expect(await verify(Buffer.from(JSON.stringify(retarget)).toString('base64'), 'samlInit')).toBe(false);
    const guessed = structuredClone(payload);
    guessed.solution.derivedKey = `${guessed.solution.derivedKey.slice(0, -2)}${guessed.solution.derivedKey.endsWith('00') ? '01' : '00'}`;
    expect(await verify(Buffer.from(JSON.stringify(guessed)).toString('base64'))).toBe(false);
    expect(await verify(token)).toBe(true);
    // The same solved challenge in another encoding is the same challenge: spent.
    expect(await verify(Buffer.from(JSON.stringify(payload, null, 1)).toString('base64'))).toBe(false);
    expect(await verify('nope')).toBe(false);
    const old = await botToken(app);
    clock += 2 * 60 * 1000 + 1;
    expect(await verify(old)).toBe(false);
    expect(await verify(await botToken(app))).toBe(true);
  });

  it('validates the action', async () => {
    expect((await post(app, '/ws/bot-check/challenge', { action: '<script>' })).statusCode).toBe(400);
    expect((await post(app, '/ws/bot-check/challenge', {})).statusCode).toBe(400);
  });
});
