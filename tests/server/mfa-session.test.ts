/** The Verify MFA modal's calls with a cookie session: switchMfaSession and verifyMfaSession (docs/mfa.md). */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { cookieValue, expectContract, login, post, row, sessionCookie } from './helpers';
import { demoAppPerFile, sentCodes, T0, totp } from './demo-helpers';

const PHONE = '+14155550123';
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });
const smsCodes = () => sentCodes(app, PHONE);

/** multi@ (TOTP + SMS) signed in through its TOTP second factor; returns the session cookie. */
async function signInMulti(): Promise<string> {
  const { body } = await login(app, 'multi@demo.test');
  const res = await post(app, '/ws/account/mfa-login', { loginToken: body.loginToken, code: await totp(clock) });
  expect(res.json()).toMatchObject({ resultCode: 'SUCCESS' });
  return cookieValue(sessionCookie(res)!);
}

async function call(operation: 'switchMfaSession' | 'verifyMfaSession', url: string, payload: Record<string, unknown>, cookie?: string) {
  const res = await post(app, url, payload, cookie ? { cookies: { fd_session: cookie } } : {});
  expect(res.statusCode, res.body).toBe(200);
  expectContract(operation, res.json());
  return res.json() as Record<string, unknown>;
}
const sw = (payload: Record<string, unknown>, cookie?: string) => call('switchMfaSession', '/ws/user/mfa/switch', payload, cookie);
const verify = (payload: Record<string, unknown>, cookie?: string) => call('verifyMfaSession', '/ws/user/mfa/verify', payload, cookie);

describe('Verify MFA modal with a session', () => {
  it("the session lists the user's MFA methods", async () => {
    const cookie = await signInMulti();
    const res = await app.inject({ url: '/ws/account/session', cookies: { fd_session: cookie } });
    expectContract('session', res.json());
    expect(res.json()).toMatchObject({ mfaMethods: ['TOTP', 'SMSOTP'] });
  });

  it('without a session both calls answer INVALID_LOGIN_TOKEN', async () => {
    expect(await sw({ mfaType: 'TOTP' })).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
    expect(await verify({ mfaType: 'TOTP', mfaCode: '123456' })).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
    expect(await sw({ mfaType: 'TOTP' }, 'not-a-session')).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
  });

  it("TOTP: switch answers {}, the next step's code verifies once, a wrong code is INVALID_MFA_CODE", async () => {
    const cookie = await signInMulti();
    expect(await sw({ mfaType: 'TOTP', returnTo: '/app/' }, cookie)).toEqual({ resultCode: 'SUCCESS' });
    expect(await verify({ mfaType: 'TOTP', mfaCode: '000000' }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    // The sign-in used this step's code: it is spent; the next step's code (±1) is good once.
    expect(await verify({ mfaType: 'TOTP', mfaCode: await totp(clock) }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    const next = await totp(clock + 30_000);
    expect(await verify({ mfaType: 'TOTP', mfaCode: next }, cookie)).toEqual({ resultCode: 'SUCCESS' });
    expect(await verify({ mfaType: 'TOTP', mfaCode: next }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });
  });

  it("SMS: switch sends a code to the outbox (sendSms), the code verifies once; after 5 wrong codes the session's modal is locked", async () => {
    const cookie = await signInMulti();
    const before = (await smsCodes()).length;
    expect(await sw({ mfaType: 'SMSOTP' }, cookie)).toEqual({ resultCode: 'SUCCESS', sendSms: true });
    const codes = await smsCodes();
    expect(codes.length).toBe(before + 1);
    const code = codes[codes.length - 1]!;
    expect(await verify({ mfaType: 'SMSOTP', mfaCode: code }, cookie)).toEqual({ resultCode: 'SUCCESS' });
    expect(await verify({ mfaType: 'SMSOTP', mfaCode: code }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });

    await sw({ mfaType: 'SMSOTP' }, cookie);
    const fresh = (await smsCodes())[0]!; // newest first
    const wrong = fresh === '111111' ? '222222' : '111111';
    // The replay above was wrong try 1 of this session; four more, then even the right code is refused.
    for (let i = 0; i < 4; i++) expect(await verify({ mfaType: 'SMSOTP', mfaCode: wrong }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    expect(await verify({ mfaType: 'SMSOTP', mfaCode: fresh }, cookie)).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
  });

  it('DUO gives duoUrl + duoChannelId; U2F_TOKEN a base64url credsRequest; unenrolled methods MFA_NOT_CONFIGURED', async () => {
    const cookie = await signInMulti();
    expect(await sw({ mfaType: 'DUO' }, cookie)).toEqual({ resultCode: 'MFA_NOT_CONFIGURED' });
    expect(await verify({ mfaType: 'U2F_TOKEN', publicKeyCredentialEncoded: '{}' }, cookie)).toEqual({ resultCode: 'MFA_NOT_CONFIGURED' });
    const userId = (await row<{ id: number }>(app, "SELECT id FROM users WHERE email = 'multi@demo.test'")).id;
    const add = 'INSERT INTO mfa_enrolments (user_id, type, position, credential_id, public_key, device_name, created_at) VALUES (?, ?, ?, ?, ?, ?, 0)';
    await app.fd.data.run(add, [userId, 'DUO', 2, null, null, null]);
    await app.fd.data.run(add, [userId, 'U2F_TOKEN', 3, 'Y3JlZC0x', 'AA', 'Key']);

    const duo = await sw({ mfaType: 'DUO' }, cookie);
    expect(duo).toMatchObject({ resultCode: 'SUCCESS', duoUrl: expect.stringContaining('/dev/duo?channel='), duoChannelId: expect.any(String) });
    // /dev/duo Approve delivers a code for the channel; the modal submits it.
    const approve = await post(app, '/dev/duo', { channel: duo.duoChannelId, decision: 'approve' });
    expect(approve.statusCode).toBeLessThan(400);
    const challenge = await row<{ code_hash: string | null }>(app, 'SELECT code_hash FROM mfa_challenges WHERE channel_id = ?', [String(duo.duoChannelId)]);
    expect(challenge.code_hash).not.toBeNull();
    expect(await verify({ mfaType: 'DUO', mfaCode: '000000' }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });

    const key = await sw({ mfaType: 'U2F_TOKEN' }, cookie);
    expect(key.resultCode).toBe('SUCCESS');
    const options = JSON.parse(Buffer.from(key.credsRequest as string, 'base64url').toString('utf8')) as {
      publicKey: { challenge: string; allowCredentials: { id: string }[]; extensions: object };
    };
    expect(options.publicKey.challenge).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(options.publicKey.allowCredentials).toEqual([{ type: 'public-key', id: 'Y3JlZC0x' }]);
    expect(options.publicKey.extensions).toEqual({});
    expect(await verify({ mfaType: 'U2F_TOKEN', publicKeyCredentialEncoded: 'not json' }, cookie)).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    const forged = {
      id: 'Y3JlZC0x',
      rawId: 'Y3JlZC0x',
      type: 'public-key',
      clientExtensionResults: {},
      response: { authenticatorData: 'AA', clientDataJSON: 'AA', signature: 'AA' },
    };
    expect(await verify({ mfaType: 'U2F_TOKEN', publicKeyCredentialEncoded: JSON.stringify(forged) }, cookie)).toEqual({ resultCode: 'INVALID_MFA_CODE' });
  });

  it('bad input is a 400', async () => {
    const cookie = await signInMulti();
    expect((await post(app, '/ws/user/mfa/switch', { mfaType: 'EMAIL' }, { cookies: { fd_session: cookie } })).statusCode).toBe(400);
    expect((await post(app, '/ws/user/mfa/verify', { mfaCode: '123456' }, { cookies: { fd_session: cookie } })).statusCode).toBe(400);
  });
});
