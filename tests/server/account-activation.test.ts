import type { FastifyInstance } from 'fastify';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { expectContract, login, makeApp, post, sessionCookie } from './helpers';

let app: FastifyInstance;
beforeEach(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

async function call(url: string, payload: unknown, operation: string) {
  const res = await post(app, url, payload);
  expect(res.statusCode, res.body).toBe(200);
  expectContract(operation, res.json());
  return res.json() as Record<string, unknown>;
}
const validate = (invitationCode: string) => call('/ws/account/validate-invitation', { invitationCode }, 'validateInvitation');
const activate = (activationKey: string) => call('/ws/account/activate', { activationKey }, 'activate');

describe('validate-invitation', () => {
  it('DEMO-INVITE-NATIVE: a code to set the password, which activates invited@ and signs in', async () => {
    const body = await validate('DEMO-INVITE-NATIVE');
    expect(body).toMatchObject({ resultCode: 'SUCCESS', authType: 'NATIVE' });
    expect(typeof body.verificationCode).toBe('string');
    const res = await post(app, '/ws/account/reset-password-commit', { password: 'Invited-Passw0rd', verificationCode: body.verificationCode });
    expect(res.json()).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
    expect(sessionCookie(res)).toBeDefined();
    expect((await login(app, 'invited@demo.test', 'Invited-Passw0rd')).body.resultCode).toBe('SUCCESS');
    // The invitation is used up with the password.
    expect((await validate('DEMO-INVITE-NATIVE')).resultCode).toBe('INVITATION_CODE_EXPIRED');
  });
  it('DEMO-INVITE-SSO: authType SSO', async () => {
    expect(await validate('DEMO-INVITE-SSO')).toEqual({ resultCode: 'SUCCESS', authType: 'SSO' });
  });
  it('DEMO-INVITE-EXPIRED and unknown codes', async () => {
    expect(await validate('DEMO-INVITE-EXPIRED')).toEqual({ resultCode: 'INVITATION_CODE_EXPIRED' });
    expect(await validate('NOT-A-CODE')).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
  });
});

describe('activate (division)', () => {
  it('DEMO-DIVISION activates once, then is already active', async () => {
    expect(await activate('DEMO-DIVISION')).toEqual({ resultCode: 'SUCCESS' });
    expect(await activate('DEMO-DIVISION')).toEqual({ resultCode: 'ALREADY_ACTIVATED' });
  });
  it('DEMO-DIVISION-ACTIVE is already active; unknown keys fail', async () => {
    expect(await activate('DEMO-DIVISION-ACTIVE')).toEqual({ resultCode: 'ALREADY_ACTIVATED' });
    expect(await activate('nope')).toEqual({ resultCode: 'UNKNOWN_VERIFICATION_CODE' });
  });
  it('bad input is a 400, not a 500', async () => {
    expect((await post(app, '/ws/account/activate', { activationKey: 5 })).statusCode).toBe(400);
    expect((await post(app, '/ws/account/activate', {})).statusCode).toBe(400);
  });
});
