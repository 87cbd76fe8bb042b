import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { anyAddress, botToken, expectContract, login, makeApp, PASSWORD, post, sessionCookie } from './helpers';

let app: FastifyInstance;
let clock = Date.now();
beforeEach(async () => {
  clock = Date.now();
  app = await makeApp({ now: () => clock });
});
afterEach(async () => {
  await app.close();
});

const NEW = 'N3w-Passw0rd!';
const outbox = async (to: string) =>
  (await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as {
    channel: string;
    text: string;
    link?: string;
    code?: string;
  }[];

async function op(url: string, payload: unknown, operation: string, from: Record<string, unknown> = {}) {
  const res = await post(app, url, payload, from);
  expect(res.statusCode, res.body).toBe(200);
  expectContract(operation, res.json());
  return { res, body: res.json() as Record<string, unknown> };
}
// Each request from its own address (the mail-load bot check counts per address; tests/security covers it).
const init = (payload: Record<string, unknown>) => op('/ws/account/reset-password-init', payload, 'resetPasswordInit', anyAddress()).then((r) => r.body);
const verify = (verificationCode: string, email = 'sms@demo.test') =>
  op('/ws/account/reset-password-verify', { email, verificationCode }, 'resetPasswordVerify').then((r) => r.body);
const commit = (verificationCode: string, password = NEW) => op('/ws/account/reset-password-commit', { verificationCode, password }, 'resetPasswordCommit');
const linkCode = (link: string | undefined) => decodeURIComponent(/\/resetPassword\/([^/?#]+)$/.exec(link ?? '')?.[1] ?? '');

describe('reset by email', () => {
  it('emails a /resetPassword/{code} link; the code works once and the new password signs in', async () => {
    expect(await init({ email: 'nomfa@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'SUCCESS' });
    const [mail] = await outbox('nomfa@demo.test');
    expect(mail?.link).toMatch(/^http:\/\/localhost(:\d+)?\/resetPassword\/[A-Za-z0-9_-]+$/);
    const code = linkCode(mail?.link);
    const { body, res } = await commit(code);
    expect(body).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    expect(sessionCookie(res)).toBeDefined();
    expect((await commit(code, 'An0ther-Pass!')).body).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    expect((await login(app, 'nomfa@demo.test', NEW)).body.resultCode).toBe('SUCCESS');
    expect((await login(app, 'nomfa@demo.test', PASSWORD)).body.resultCode).toBe('AUTHENTICATION_FAILURE');
  });
  it('an expired link gives VERIFICATION_CODE_EXPIRED', async () => {
    await init({ email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
    const [mail] = await outbox('nomfa@demo.test');
    clock += 2 * 60 * 60 * 1000;
    expect((await commit(linkCode(mail?.link))).body).toEqual({ resultCode: 'VERIFICATION_CODE_EXPIRED' });
  });
  it('a weak new password is refused and the code stays usable', async () => {
    await init({ email: 'nomfa@demo.test', verifyBy: 'EMAIL' });
    const code = linkCode((await outbox('nomfa@demo.test'))[0]?.link);
    expect((await commit(code, 'weak')).body.resultCode).toBe('INVALID_PASSWORD');
    expect((await commit(code)).body.resultCode).toBe('SUCCESS');
  });
  it('the commit routes like sign-in: MFA_REQUIRED, TRIAL_EXPIRED', async () => {
    await init({ email: 'tech@demo.test', verifyBy: 'EMAIL' });
    expect((await commit(linkCode((await outbox('tech@demo.test'))[0]?.link))).body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
    await init({ email: 'expired@demo.test', verifyBy: 'EMAIL' });
    expect((await commit(linkCode((await outbox('expired@demo.test'))[0]?.link))).body).toMatchObject({
      resultCode: 'TRIAL_EXPIRED',
      accountManagerName: 'Alex Morgan',
    });
  });
});

describe('reset by text', () => {
  it('sms@ with 0123: a security code by text, verify, commit, then MFA at sign-in with the new password', async () => {
    expect(await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' })).toEqual({ resultCode: 'SUCCESS' });
    const [sms] = await outbox('+14155550123');
    expect(sms?.channel).toBe('sms');
    expect(sms?.code).toMatch(/^\d{6}$/);
    expect(await verify('000000' === sms?.code ? '111111' : '000000')).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    const ok = await verify(sms!.code!);
    expect(ok.resultCode).toBe('SUCCESS');
    expect(await verify(sms!.code!)).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    // The code belongs to sms@: named with another account it is unknown.
    expect((await commit(String(ok.verificationCode))).body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP' });
    expect((await login(app, 'sms@demo.test', NEW)).body.resultCode).toBe('MFA_REQUIRED');
  });
  it('wrong digits and an expired security code', async () => {
    expect(await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '9999' })).toEqual({ resultCode: 'PHONE_DIGITS_MISMATCH' });
    expect(await init({ email: 'nomfa@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' })).toEqual({ resultCode: 'PHONE_DIGITS_MISMATCH' });
    await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    const [sms] = await outbox('+14155550123');
    expect(await verify(sms!.code!, 'multi@demo.test')).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    clock += 11 * 60 * 1000;
    expect(await verify(sms!.code!)).toEqual({ resultCode: 'VERIFICATION_CODE_EXPIRED' });
  });
  it('one live code per account: a new request voids the old; five wrong tries kill a code', async () => {
    await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    const [first] = await outbox('+14155550123');
    await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    const [second] = await outbox('+14155550123');
    const wrong = second!.code === '000000' ? '111111' : '000000';
    // The voided first code is a wrong try against the live one (try 1 of 5), then three more.
    expect(await verify(first!.code !== second!.code ? first!.code! : wrong)).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    for (let i = 0; i < 3; i += 1) expect(await verify(wrong)).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    // The fifth try of a code is its last, even when it is right.
    expect((await verify(second!.code!)).resultCode).toBe('SUCCESS');
    await init({ email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' });
    const [third] = await outbox('+14155550123');
    for (let i = 0; i < 5; i += 1) expect(await verify(third!.code === '000000' ? '111111' : '000000')).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
    expect(await verify(third!.code!)).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
  });
});

describe('init errors', () => {
  it('inactive -> ACCOUNT_NOT_ACTIVATED; unknown -> USER_NOT_FOUND; the bot check after 3 failures', async () => {
    expect(await init({ email: 'inactive@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'ACCOUNT_NOT_ACTIVATED' });
    expect(await init({ email: 'ghost@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'USER_NOT_FOUND' });
    await init({ email: 'ghost@demo.test', verifyBy: 'EMAIL' });
    expect(await init({ email: 'ghost@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'USER_NOT_FOUND', recaptchaRequired: true });
    expect(await init({ email: 'ghost@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
    expect(await init({ email: 'ghost@demo.test', verifyBy: 'EMAIL', recaptchaToken: await botToken(app, 'resetPasswordInit') })).toMatchObject({
      resultCode: 'USER_NOT_FOUND',
    });
    // Reset failures do not count as sign-in failures.
    expect((await post(app, '/ws/account/authentication-state', { email: 'ghost@demo.test' })).json()).toMatchObject({ recaptchaRequired: false });
  });
  it('captcha-fail@ gets HUMAN_VERIFICATION_FAILED', async () => {
    expect(await init({ email: 'captcha-fail@demo.test', verifyBy: 'EMAIL' })).toEqual({ resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });
  });
  it('bad input is a 400', async () => {
    expect((await post(app, '/ws/account/reset-password-init', { email: 'a@b.test', verifyBy: 'FAX' })).statusCode).toBe(400);
    expect((await post(app, '/ws/account/reset-password-commit', { verificationCode: 'x' })).statusCode).toBe(400);
  });
});

describe('SETUP_PASSWORD', () => {
  it('newpass@: the sign-in code sets the password, then sign-in succeeds', async () => {
    const { body } = await login(app, 'newpass@demo.test');
    expect(body.resultCode).toBe('SETUP_PASSWORD');
    expect((await commit(String(body.verificationCode))).body).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    expect((await login(app, 'newpass@demo.test', NEW)).body.resultCode).toBe('SUCCESS');
  });
});
