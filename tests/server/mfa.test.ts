import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { expectContract, login, post, row, send, sessionCookie } from './helpers';
import { DEMO_TOTP_SECRET as SECRET, demoAppPerFile, sentCodes, T0, totp } from './demo-helpers';
import { NON_HTML_CSP } from '../../server/security/headers';

let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });
const smsCodes = (phone: string) => sentCodes(app, phone);

async function mfaLogin(loginToken: string, code: string) {
  const res = await post(app, '/ws/account/mfa-login', { loginToken, code });
  expect(res.statusCode, res.body).toBe(200);
  expectContract('mfaLogin', res.json());
  return { res, body: res.json() as Record<string, unknown> };
}

describe('mfa-login: TOTP (tech@)', () => {
  it('accepts the current code and the neighbouring steps, and signs in', async () => {
    for (const offset of [0, -30_000, 30_000]) {
      await post(app, '/dev/reset', {});
      const { body } = await login(app, 'tech@demo.test');
      expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP', available_mfa: ['TOTP'] });
      const { res, body: done } = await mfaLogin(body.loginToken as string, await totp(clock + offset));
      expect(done).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeyOffer: 'OFFER' });
      expect(sessionCookie(res)).toBeDefined();
    }
  });

  it('refuses a code two steps away, a wrong code, and a code used before', async () => {
    const first = (await login(app, 'tech@demo.test')).body.loginToken as string;
    expect((await mfaLogin(first, await totp(clock - 60_000))).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    expect((await mfaLogin(first, '000000' === (await totp(clock)) ? '111111' : '000000')).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    const code = await totp(clock);
    expect((await mfaLogin(first, code)).body.resultCode).toBe('SUCCESS');
    const second = (await login(app, 'tech@demo.test')).body.loginToken as string;
    expect((await mfaLogin(second, code)).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
  });

  it('a login token is single use, expires after 10 minutes, and dies after 5 wrong codes', async () => {
    const token = (await login(app, 'tech@demo.test')).body.loginToken as string;
    expect((await mfaLogin(token, await totp(clock))).body.resultCode).toBe('SUCCESS');
    clock += 30_000;
    expect((await mfaLogin(token, await totp(clock))).body).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });

    const late = (await login(app, 'tech@demo.test')).body.loginToken as string;
    clock += 10 * 60_000 + 1;
    expect((await mfaLogin(late, await totp(clock))).body).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });

    const guessed = (await login(app, 'tech@demo.test')).body.loginToken as string;
    const right = await totp(clock);
    const wrong = right === '123456' ? '654321' : '123456';
    for (let i = 0; i < 5; i++) expect((await mfaLogin(guessed, wrong)).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    expect((await mfaLogin(guessed, right)).body).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
    expect((await mfaLogin('not-a-token', right)).body).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
  });
});

describe('mfa-login: SMS (sms@, multi@)', () => {
  it('sms@: the code in the outbox signs in once', async () => {
    const { body } = await login(app, 'sms@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'SMSOTP', sendSms: true });
    const [code] = await smsCodes('+14155550123');
    expect(code).toMatch(/^\d{6}$/);
    expect((await mfaLogin(body.loginToken as string, code!)).body.resultCode).toBe('SUCCESS');
    const again = (await login(app, 'sms@demo.test')).body.loginToken as string;
    // A code belongs to its login token's challenge: a new sign-in cannot reuse the old one.
    const [fresh] = await smsCodes('+14155550123');
    if (fresh !== code) expect((await mfaLogin(again, code!)).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    expect((await mfaLogin(again, fresh!)).body.resultCode).toBe('SUCCESS');
  });

  it('multi@: switch to SMS sends a code; switching to an unconfigured method is refused', async () => {
    const { body } = await login(app, 'multi@demo.test');
    expect(body).toMatchObject({ mfaType: 'TOTP', available_mfa: ['TOTP', 'SMSOTP'] });
    const token = body.loginToken as string;
    const before = (await smsCodes('+14155550123')).length;
    const sw = await post(app, '/ws/account/switch-mfa', { loginToken: token, mfaType: 'SMSOTP' });
    expectContract('switchMfa', sw.json());
    expect(sw.json()).toEqual({ resultCode: 'SUCCESS', sendSms: true });
    const codes = await smsCodes('+14155550123');
    expect(codes.length).toBe(before + 1);
    expect((await post(app, '/ws/account/switch-mfa', { loginToken: token, mfaType: 'DUO' })).json()).toEqual({ resultCode: 'MFA_NOT_CONFIGURED' });
    // After the switch the TOTP code no longer applies; the SMS code does.
    expect((await mfaLogin(token, await totp(clock))).body).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    expect((await mfaLogin(token, codes[0]!)).body.resultCode).toBe('SUCCESS');
    expect((await post(app, '/ws/account/switch-mfa', { loginToken: token, mfaType: 'TOTP' })).json()).toEqual({ resultCode: 'INVALID_LOGIN_TOKEN' });
  });

  it('bad input is a 400, never a 500', async () => {
    expect((await post(app, '/ws/account/mfa-login', { loginToken: 'x' })).statusCode).toBe(400);
    expect((await post(app, '/ws/account/switch-mfa', { loginToken: 'x', mfaType: 'EMAIL' })).statusCode).toBe(400);
    expect((await post(app, '/ws/account/u2f-login', { loginToken: 'x', publicKeyCredentialJson: 1 })).statusCode).toBe(400);
  });
});

describe('Duo (duo@)', () => {
  it('Approve on /dev/duo delivers a code on the realtime channel; the code signs in once', async () => {
    const { body } = await login(app, 'duo@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO' });
    const channel = body.duoChannelId as string;
    expect(body.duoUrl).toBe(`/dev/duo?channel=${encodeURIComponent(channel)}`);
    const page = await app.inject({ method: 'GET', url: body.duoUrl as string });
    expect(page.body).toContain('duo@demo.test');
    expect(page.body).toContain('>Approve</button>');

    const address = await app.listen({ port: 0, host: '127.0.0.1' });
    const stream = await fetch(`${address}/ws/account/duo-channel/${encodeURIComponent(channel)}`);
    expect(stream.headers.get('content-type')).toContain('text/event-stream');
    // Written past Fastify's onSend hook, yet with the same security headers as every other answer.
    expect(stream.headers.get('x-content-type-options')).toBe('nosniff');
    expect(stream.headers.get('content-security-policy')).toBe(NON_HTML_CSP);
    expect(stream.headers.get('cross-origin-resource-policy')).toBe('same-origin');
    expect(stream.headers.get('x-frame-options')).toBe('DENY');
    const reader = stream.body!.getReader();
    await app.inject({
      method: 'POST',
      url: '/dev/duo',
      payload: `channel=${encodeURIComponent(channel)}&decision=approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    let text = '';
    while (!/data: .*\n\n/.test(text)) text += new TextDecoder().decode((await reader.read()).value);
    await reader.cancel();
    const message = JSON.parse(/data: (.*)\n\n/.exec(text)![1]!) as { mfaCode: string };
    expectContract('duoChannel', message);
    expect(message.mfaCode).toMatch(/^\d{6}$/);
    expect((await mfaLogin(body.loginToken as string, message.mfaCode)).body.resultCode).toBe('SUCCESS');
    expect((await app.inject({ method: 'GET', url: `/ws/account/duo-channel/${encodeURIComponent(channel)}` })).statusCode).toBe(404);
  });
});

describe('MFA setup (setup@, setup-nophone@)', () => {
  async function userToken(email: string) {
    const { body } = await login(app, email);
    expect(body).toMatchObject({ resultCode: 'SETUP_MFA', available_mfa: ['U2F_TOKEN', 'TOTP', 'DUO', 'SMSOTP'] });
    return body.userToken as string;
  }

  it('authenticator app: a new secret, two consecutive codes, then sign-in with that app', async () => {
    const token = await userToken('setup@demo.test');
    const res = await post(app, '/ws/account/config-totp', { userToken: token });
    expectContract('configTotp', res.json());
    const { key, qrUrl } = res.json() as { key: string; qrUrl: string };
    expect(qrUrl).toMatch(/^otpauth:\/\/totp\/.*secret=/);
    const same = await totp(clock, key);
    expect((await post(app, '/ws/account/login/totp', { key, code: same, secondaryCode: same, userToken: token })).json()).toEqual({
      resultCode: 'INVALID_MFA_CODE',
    });
    expect(
      (
        await post(app, '/ws/account/login/totp', {
          key: SECRET,
          code: await totp(clock - 30_000, SECRET),
          secondaryCode: await totp(clock, SECRET),
          userToken: token,
        })
      ).json(),
    ).toEqual({ resultCode: 'INVALID_MFA_CODE' });
    const done = await post(app, '/ws/account/login/totp', {
      key,
      code: await totp(clock - 30_000, key),
      secondaryCode: await totp(clock, key),
      userToken: token,
    });
    expect(done.json()).toEqual({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
    expect(sessionCookie(done)).toBeDefined();
    clock += 30_000;
    const { body } = await login(app, 'setup@demo.test');
    expect(body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'TOTP' });
    expect((await mfaLogin(body.loginToken as string, await totp(clock, key))).body.resultCode).toBe('SUCCESS');
  });

  it('SMS: code to the phone on file; no phone: PHONE_REQUIRED, change-phone rules, then a code', async () => {
    const token = await userToken('setup@demo.test');
    expect((await post(app, '/ws/account/config-smsotp', { userToken: token })).json()).toEqual({ resultCode: 'SUCCESS', sendSms: true });
    const [code] = await smsCodes('+14155550188');
    expect((await post(app, '/ws/account/login/smsotp', { code: code!, userToken: token })).json().resultCode).toBe('SUCCESS');

    const bare = await userToken('setup-nophone@demo.test');
    expect((await post(app, '/ws/account/config-smsotp', { userToken: bare })).json()).toEqual({ resultCode: 'PHONE_REQUIRED' });
    const change = (phoneNumber: string) => send(app, { method: 'PATCH', url: '/ws/account/change-phone', payload: { userToken: bare, phoneNumber } });
    expect((await change('+1415')).json()).toEqual({ resultCode: 'INVALID_PHONE' });
    expect((await change('+6591234567')).json()).toEqual({ resultCode: 'INVALID_COUNTRY_REGION' });
    const ok = await change('+14155550199');
    expectContract('changePhone', ok.json());
    expect(ok.json()).toEqual({ resultCode: 'SUCCESS', phoneNumber: '+14155550199' });
    // Not stored before a code sent to it comes back.
    const phoneOnFile = async () => (await row<{ phone: string | null }>(app, "SELECT phone FROM users WHERE email = 'setup-nophone@demo.test'")).phone;
    expect(await phoneOnFile()).toBeNull();
    expect((await post(app, '/ws/account/config-smsotp', { userToken: bare })).json()).toEqual({ resultCode: 'SUCCESS', sendSms: true });
    const sent = await smsCodes('+14155550199');
    expect(sent.length).toBe(1);
    expect(await phoneOnFile()).toBeNull();
    expect((await post(app, '/ws/account/login/smsotp', { code: sent[0]!, userToken: bare })).json().resultCode).toBe('SUCCESS');
    expect(await phoneOnFile()).toBe('+14155550199');
    const notices = (await app.inject({ url: '/dev/outbox?to=setup-nophone@demo.test' })).json() as { subject: string; text: string }[];
    const subject = 'The phone number of your Front Door account was changed';
    expect(notices.map((n) => n.subject)).toContain(subject);
    expect(notices.find((n) => n.subject === subject)?.text).toContain('•••0199');
  });

  it('Duo: config-duo gives the enrolment page; Approve enrols DUO and signs in', async () => {
    const token = await userToken('setup@demo.test');
    const res = await post(app, '/ws/account/config-duo', { userToken: token, returnTo: '/app/?x=1' });
    expectContract('configDuo', res.json());
    const url = (res.json() as { duoMfaUrl: string }).duoMfaUrl;
    expect((await app.inject({ method: 'GET', url })).body).toContain('Enrol Duo for <strong>setup@demo.test</strong>');
    const setup = new URL(url, 'http://x').searchParams.get('setup')!;
    const done = await send(app, {
      method: 'POST',
      url: '/dev/duo',
      payload: `setup=${encodeURIComponent(setup)}&decision=approve`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(done.statusCode).toBe(303);
    // A first factor was set up: its recovery codes come first, then the way on (return_to).
    expect(done.headers.location).toBe(`/mfa/recovery-codes?return_to=${encodeURIComponent('/app/?x=1')}`);
    expect(sessionCookie(done)).toBeDefined();
    expect((await login(app, 'setup@demo.test')).body).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'DUO' });
    expect((await post(app, '/ws/account/config-totp', { userToken: token })).json()).toEqual({ resultCode: 'INVALID_USER_TOKEN' });
  });

  it('WebAuthn: init gives creation options; a forged response is refused', async () => {
    const token = await userToken('setup@demo.test');
    const res = await post(app, '/ws/account/config-webauthn-init', { userToken: token }, { headers: { host: 'localhost:8080' } });
    expectContract('configWebauthnInit', res.json());
    const { createCredentialsJson, registrationToken } = res.json() as { createCredentialsJson: string; registrationToken: string };
    const options = JSON.parse(createCredentialsJson) as { publicKey: { rp: { id: string }; challenge: string } };
    expect(options.publicKey.rp.id).toBe('localhost');
    expect(options.publicKey.challenge).toMatch(/^[A-Za-z0-9_-]+$/);
    const forged = await post(
      app,
      '/ws/account/config-webauthn-complete',
      {
        setupMfaRequest: { userToken: token },
        webAuthnRegistrationResponse: {
          registrationToken,
          deviceName: 'Key',
          tokenResponse: { type: 'public-key', id: 'abc', response: { attestationObject: 'AAAA', clientDataJSON: 'AAAA' } },
        },
      },
      { headers: { host: 'localhost:8080' } },
    );
    expect(forged.statusCode).toBe(200);
    expect(forged.json()).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
  });

  it('WebAuthn: the relying party is the configured public URL, never the Host header', async () => {
    const token = await userToken('setup@demo.test');
    // An unknown Host is not served at all; an untrusted X-Forwarded-Host changes nothing.
    expect((await post(app, '/ws/account/config-webauthn-init', { userToken: token }, { headers: { host: 'evil.test' } })).statusCode).toBe(421);
    const res = await post(app, '/ws/account/config-webauthn-init', { userToken: token }, { headers: { host: 'localhost', 'x-forwarded-host': 'evil.test' } });
    const options = JSON.parse((res.json() as { createCredentialsJson: string }).createCredentialsJson) as { publicKey: { rp: { id: string } } };
    expect(options.publicKey.rp.id).toBe('localhost');
  });
});
