import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { anyAddress, expectContract, login, makeApp, post, PASSWORD } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

const outbox = async (to: string) =>
  (await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as {
    channel: string;
    text: string;
    link?: string;
    subject?: string;
  }[];

const form = (overrides: Record<string, unknown> = {}) => ({
  companyName: 'Acme Ltd',
  firstName: 'Ada',
  lastName: 'Lovelace',
  email: 'ada@acme.test',
  password: 'Str0ng-Pass',
  passwordConfirm: 'Str0ng-Pass',
  phone: '+14155550199',
  language: 'de-de',
  ...overrides,
});

async function register(body: Record<string, unknown>) {
  const res = await post(app, '/ws/account/register', body, anyAddress());
  expect(res.statusCode, res.body).toBe(200);
  expectContract('register', res.json());
  return res.json() as Record<string, unknown>;
}

async function invite(code: string) {
  const res = await app.inject({ method: 'GET', url: `/account/register/${encodeURIComponent(code)}` });
  expect(res.statusCode).toBe(200);
  expectContract('registerInvite', res.json());
  return res.json() as Record<string, unknown>;
}

describe('trial links (GET /account/register/{code})', () => {
  it('DEMO-TRIAL prefills the invite', async () => {
    expect(await invite('DEMO-TRIAL')).toEqual({
      resultCode: 'SUCCESS',
      companyName: 'Demo Co',
      firstName: 'Dana',
      lastName: 'Lee',
      email: 'dana.lee@demo.test',
      language: 'en-gb',
    });
  });
  it.each([
    ['DEMO-TRIAL-EXPIRED', 'ERR_INVITE_EXPIRED'],
    ['DEMO-TRIAL-USED', 'ERR_INVITE_USED'],
    ['DEMO-TRIAL-REPLACED', 'ERR_INVITE_REPLACED'],
  ])('%s -> %s naming Sam Rivera', async (code, result) => {
    expect(await invite(code)).toEqual({ resultCode: result, message: 'Sam Rivera', salesRepresentative: 'Sam Rivera' });
  });
  it('an unknown link is ERR_INVITE_NOT_FOUND', async () => {
    expect((await invite('NOPE')).resultCode).toBe('ERR_INVITE_NOT_FOUND');
  });
});

describe('register', () => {
  it('creates an inactive user, emails an activation link that activates once, then the user signs in', async () => {
    expect(await register(form())).toEqual({ resultCode: 'SUCCESS' });
    expect((await login(app, 'ada@acme.test', 'Str0ng-Pass')).body.resultCode).toBe('ACCOUNT_NOT_ACTIVATED');
    const [mail] = await outbox('ada@acme.test');
    expect(mail?.channel).toBe('email');
    const key = /\/activate\/division\/([^/?#\s]+)$/.exec(mail?.link ?? '')?.[1];
    expect(key).toBeDefined();
    expect(mail?.text).toContain(mail?.link);
    const activationKey = decodeURIComponent(key!);
    // The key alone does not activate a self-registered account: the person proves who they are.
    expect((await post(app, '/ws/account/activate', { activationKey })).json()).toEqual({ resultCode: 'PASSWORD_REQUIRED' });
    expect((await login(app, 'ada@acme.test', 'Str0ng-Pass')).body.resultCode).toBe('ACCOUNT_NOT_ACTIVATED');
    expect((await post(app, '/ws/account/activate-account', { activationKey, password: 'Wrong-Pass1' })).json()).toEqual({
      resultCode: 'AUTHENTICATION_FAILURE',
    });
    // With the password chosen at registration it activates and signs in: a new trial owner sets up MFA, with the phone on file.
    const first = await post(app, '/ws/account/activate-account', { activationKey, password: 'Str0ng-Pass' });
    expectContract('activateAccount', first.json());
    expect(first.json()).toMatchObject({ resultCode: 'SETUP_MFA', phoneNumber: '+14155550199' });
    expect((await post(app, '/ws/account/activate', { activationKey })).json()).toEqual({ resultCode: 'ALREADY_ACTIVATED' });
    expect((await post(app, '/ws/account/activate-account', { activationKey, password: 'Str0ng-Pass' })).json()).toEqual({ resultCode: 'ALREADY_ACTIVATED' });
    const signIn = await login(app, 'ada@acme.test', 'Str0ng-Pass');
    expect(signIn.body).toMatchObject({ resultCode: 'SETUP_MFA', phoneNumber: '+14155550199' });
    expect((await login(app, 'ada@acme.test', 'Wrong-Pass1')).body.resultCode).toBe('AUTHENTICATION_FAILURE');
  });

  it('someone who did not register the address activates with a new password; the one given at registration is void', async () => {
    expect(await register(form({ email: 'grace@acme.test', password: 'Attack3r-Pass', passwordConfirm: 'Attack3r-Pass' }))).toEqual({ resultCode: 'SUCCESS' });
    const [mail] = await outbox('grace@acme.test');
    const activationKey = decodeURIComponent(/\/activate\/division\/([^/?#\s]+)$/.exec(mail?.link ?? '')?.[1] ?? '');
    expect((await post(app, '/ws/account/activate-account', { activationKey, newPassword: 'weak' })).json()).toEqual({ resultCode: 'INVALID_PASSWORD' });
    const done = await post(app, '/ws/account/activate-account', { activationKey, newPassword: 'Gr4ce-Own-Pass' });
    expect(done.json()).toMatchObject({ resultCode: 'SETUP_MFA' });
    expect((await login(app, 'grace@acme.test', 'Attack3r-Pass')).body.resultCode).toBe('AUTHENTICATION_FAILURE');
    expect((await login(app, 'grace@acme.test', 'Gr4ce-Own-Pass')).body.resultCode).toBe('SETUP_MFA');
  });

  it('the trial link locks the email and is used up', async () => {
    expect(await register(form({ email: 'someone-else@acme.test', trialLinkCode: 'DEMO-TRIAL' }))).toEqual({ resultCode: 'SUCCESS' });
    expect(await outbox('dana.lee@demo.test')).toHaveLength(1);
    expect(await outbox('someone-else@acme.test')).toHaveLength(0);
    expect(await invite('DEMO-TRIAL')).toEqual({ resultCode: 'ERR_INVITE_USED', message: 'Sam Rivera', salesRepresentative: 'Sam Rivera' });
    // The used link keeps none of the invitee's data, and the code is stored hashed.
    const rows = await app.fd.data.all('SELECT * FROM trial_links');
    expect(JSON.stringify(rows)).not.toMatch(/DEMO-TRIAL|dana|Demo Co/i);
    expect(await register(form({ email: 'x1@acme.test', trialLinkCode: 'DEMO-TRIAL' }))).toEqual({
      resultCode: 'ERR_INVITE_USED',
      message: 'Sam Rivera',
      salesRepresentative: 'Sam Rivera',
    });
  });

  it('every demo account email is EMAIL_ALREADY_REGISTERED (any case)', async () => {
    for (const email of ['tech@demo.test', 'INACTIVE@demo.test', 'invited@demo.test']) {
      expect((await register(form({ email }))).resultCode, email).toBe('EMAIL_ALREADY_REGISTERED');
    }
  });

  it.each([
    ['companyName', 'ILLEGAL_CHARACTERS_COMPANY_NAME'],
    ['firstName', 'ILLEGAL_CHARACTERS_FIRST_NAME'],
    ['lastName', 'ILLEGAL_CHARACTERS_LAST_NAME'],
  ])('illegal characters in %s -> %s with the list', async (field, code) => {
    const body = await register(form({ email: `ill-${field}@acme.test`, [field]: 'Bad <b>' }));
    expect(body.resultCode).toBe(code);
    expect(body.message).toContain('<');
    expect(body.illegalCharacters).toBe(body.message);
  });

  it('password rules and bad input are refused without a 500', async () => {
    expect((await register(form({ email: 'p1@acme.test', password: 'weakpass', passwordConfirm: 'weakpass' }))).resultCode).toBe('INVALID_PASSWORD');
    expect((await register(form({ email: 'p2@acme.test', passwordConfirm: 'Other-Pass1' }))).resultCode).toBe('PASSWORDS_DO_NOT_MATCH');
    for (const bad of [
      form({ email: 'not-an-email' }),
      form({ email: 'b@acme.test', phone: '+1234' }),
      form({ email: 'c@acme.test', companyName: '   ' }),
      { email: 'x' },
      form({ extra: 1 }),
    ]) {
      const res = await post(app, '/ws/account/register', bad, anyAddress());
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect((res.json() as { error: string }).error).toBe('VALIDATION');
    }
  });
});

describe('request-activation-email', () => {
  const request = async (email: string) => {
    const res = await post(app, '/ws/account/request-activation-email', { email }, anyAddress());
    expect(res.statusCode).toBe(200);
    expectContract('requestActivationEmail', res.json());
    return (res.json() as { resultCode: string }).resultCode;
  };
  it('inactive@ gets an activation email whose link activates the account', async () => {
    expect(await request('inactive@demo.test')).toBe('SUCCESS');
    const [mail] = await outbox('inactive@demo.test');
    const key = decodeURIComponent(/\/activate\/division\/([^/?#\s]+)$/.exec(mail?.link ?? '')?.[1] ?? '');
    // Asking again sends the same live link (no new key, nothing voided).
    expect(await request('inactive@demo.test')).toBe('SUCCESS');
    expect((await outbox('inactive@demo.test'))[0]?.link).toBe(mail?.link);
    expect((await post(app, '/ws/account/activate', { activationKey: key })).json()).toEqual({ resultCode: 'PASSWORD_REQUIRED' });
    expect((await post(app, '/ws/account/activate-account', { activationKey: key, password: PASSWORD })).json()).toMatchObject({ resultCode: 'SUCCESS' });
    expect((await login(app, 'inactive@demo.test')).body.resultCode).toBe('SUCCESS');
    expect(await request('inactive@demo.test')).toBe('ALREADY_ACTIVATED');
  });
  it('tech@ is ALREADY_ACTIVATED; unknown emails are an error code', async () => {
    expect(await request('tech@demo.test')).toBe('ALREADY_ACTIVATED');
    expect(await request('ghost@demo.test')).toBe('USER_NOT_FOUND');
    expect((await post(app, '/ws/account/request-activation-email', { email: '  ' })).statusCode).toBe(400);
  });
});

describe('self-registration disabled', () => {
  it('app-config says so; open registration is refused, invite links still work', async () => {
    const closed = await makeApp({ selfRegistration: false });
    try {
      expect((await closed.inject({ method: 'GET', url: '/ws/app-config' })).json()).toMatchObject({ selfRegistrationEnabled: false });
      const open = await post(closed, '/ws/account/register', form({ email: 'closed@acme.test' }), anyAddress());
      expect(open.json()).toEqual({ resultCode: 'SELF_REGISTRATION_DISABLED' });
      const invited = await post(closed, '/ws/account/register', form({ trialLinkCode: 'DEMO-TRIAL' }), anyAddress());
      expect(invited.json()).toEqual({ resultCode: 'SUCCESS' });
    } finally {
      await closed.close();
    }
  });
  it('is enabled by default', async () => {
    expect((await app.inject({ method: 'GET', url: '/ws/app-config' })).json()).toMatchObject({ selfRegistrationEnabled: true });
  });
});
