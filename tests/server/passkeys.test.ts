/**
 * Passkeys on the server (routes/passkeys.ts, services/passkeys.ts): the offer after signing in
 * (never to a single sign-on account), adding one, the creation options (and MFA setup's for a security
 * key), signing in with it alone, and the attacks on both (replay, another browser, another origin or
 * RP ID, another account's credential, no user verification, a cloned authenticator).
 * Every refusal has its control: the owner's same request, done right, passes.
 */
import type { FastifyInstance } from 'fastify';
import { beforeEach, describe, expect, it } from 'vitest';
import { client } from '../security/attack-helpers';
import { call, demoAppPerFile } from './demo-helpers';
import { PASSWORD } from './helpers';
import { enrol, loginOptions, passkeyLogin, signedIn as stepsSignedIn, type Body, type Creation } from './passkey-steps';
import { softPasskey } from './soft-passkey';

const T0 = Date.UTC(2026, 0, 1, 12, 0, 0);
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

const signedIn = (email?: string) => stepsSignedIn(app, email);

async function outbox(to: string): Promise<{ subject?: string; text: string }[]> {
  return (await app.inject({ method: 'GET', url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as { subject?: string; text: string }[];
}

describe('the offer and adding a passkey', () => {
  it('offers a passkey right after signing in, adds one, tells the owner, and stops offering', async () => {
    const browser = await signedIn();
    expect(await call(browser, 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'OFFER', userType: 'TECHNICIAN' });
    const key = await enrol(browser);
    expect((await outbox('nomfa@demo.test')).map((m) => m.subject)).toContain('A passkey was added to your Front Door account');
    expect(await call(browser, 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'NO_OFFER', userType: 'TECHNICIAN' });
    // Stored with what the authenticator told: counter, backup state, AAGUID, transports, discoverable.
    const row = await app.fd.data.get<Body>('SELECT * FROM passkeys WHERE credential_id = ?', [key.credentialId]);
    expect(row).toMatchObject({ aaguid: key.aaguid, backed_up: 1, device_type: 'multiDevice', discoverable: 1, transports: '["internal","hybrid"]' });
  });

  it('an end user gets the offer too, with the user type the way on needs', async () => {
    expect(await call(await signedIn('user@demo.test'), 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'OFFER', userType: 'END_USER' });
  });

  it('"Not now" asks again after 7 days, "Don\'t ask again" never does', async () => {
    const browser = await signedIn();
    expect(await call(browser, 'passkeyOfferDecline', '/ws/account/passkey/offer/decline', { forever: false })).toEqual({
      resultCode: 'SUCCESS',
      userType: 'TECHNICIAN',
    });
    expect((await call(await signedIn(), 'passkeyOffer', '/ws/account/passkey/offer')).resultCode).toBe('NO_OFFER');
    clock += 7 * 24 * 3600_000 + 1000;
    const later = await signedIn();
    expect((await call(later, 'passkeyOffer', '/ws/account/passkey/offer')).resultCode).toBe('OFFER');
    await call(later, 'passkeyOfferDecline', '/ws/account/passkey/offer/decline', { forever: true });
    clock += 365 * 24 * 3600_000;
    expect((await call(await signedIn(), 'passkeyOffer', '/ws/account/passkey/offer')).resultCode).toBe('NO_OFFER');
  });

  it('only a fresh session of the account adds one; without a session nothing is offered or added', async () => {
    const anonymous = client(app);
    expect(await call(anonymous, 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'NO_OFFER' });
    expect(await call(anonymous, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {})).toEqual({ resultCode: 'NOT_ALLOWED' });
    const browser = await signedIn();
    const options = await call(browser, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {});
    // Eleven minutes later the session may still be alive, but it no longer adds sign-in methods.
    clock += 11 * 60_000;
    const late = await call(browser, 'passkeyRegister', '/ws/account/passkey', { credentialJson: softPasskey().register(options.options as Creation) });
    expect(late).toEqual({ resultCode: 'NOT_ALLOWED' });
    expect((await call(browser, 'passkeyOffer', '/ws/account/passkey/offer')).resultCode).toBe('NO_OFFER');
    // Control: a fresh sign-in adds it.
    await enrol(await signedIn());
  });

  it('refuses a registration for another session, another browser, a replayed one, and without user verification', async () => {
    const owner = await signedIn();
    const options = (await call(owner, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {})).options as Creation;
    // Another browser signed in to the same account cannot use this session's challenge.
    const other = await signedIn();
    expect(await call(other, 'passkeyRegister', '/ws/account/passkey', { credentialJson: softPasskey().register(options) })).toEqual({
      resultCode: 'MALFORMED_CREDENTIAL',
    });
    expect(await call(owner, 'passkeyRegister', '/ws/account/passkey', { credentialJson: softPasskey({ userVerification: false }).register(options) })).toEqual(
      {
        resultCode: 'MALFORMED_CREDENTIAL',
      },
    );
    const good = softPasskey();
    const json = good.register(options);
    expect((await call(owner, 'passkeyRegister', '/ws/account/passkey', { credentialJson: json })).resultCode).toBe('SUCCESS');
    expect(await call(owner, 'passkeyRegister', '/ws/account/passkey', { credentialJson: json })).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    expect(await call(owner, 'passkeyRegister', '/ws/account/passkey', { credentialJson: '{not json' })).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
  });

  it('MFA setup asks a security key for a discoverable credential where it can, presence enough; the offer requires user verification', async () => {
    const browser = client(app);
    const setup = await call(browser, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
    expect(setup.resultCode).toBe('SETUP_MFA');
    const init = await call(browser, 'configWebauthnInit', '/ws/account/config-webauthn-init', { userToken: setup.userToken });
    type Options = { attestation: string; user: { id: string }; authenticatorSelection: Record<string, unknown> };
    const { publicKey } = JSON.parse(init.createCredentialsJson as string) as { publicKey: Options };
    // A second factor: user presence is enough (the key also signs in as a passkey, whose sign-in asks for verification itself).
    expect(publicKey.authenticatorSelection).toMatchObject({ residentKey: 'preferred', requireResidentKey: false, userVerification: 'discouraged' });
    expect(publicKey.attestation).toBe('none');
    // The user handle of the account's passkeys: a discoverable key names its account when it signs in alone.
    const { uid } = (await app.fd.data.get<{ uid: string }>("SELECT uid FROM users WHERE email = 'setup@demo.test'"))!;
    expect(publicKey.user.id).toBe(Buffer.from(uid).toString('base64url'));
    // The passkey offer's options: discoverable (sign-in options name no credential), user verification required.
    const offer = (await call(await signedIn(), 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {})).options as Options;
    expect(offer.authenticatorSelection).toMatchObject({ residentKey: 'required', requireResidentKey: true, userVerification: 'required' });
  });

  it('a single sign-on account, signed in through its IdP, is never offered a passkey nor given creation options', async () => {
    const sso = client(app);
    // Signed in through /dev/idp, the demo IdP of SSO users without a connection (sso@ without its SAML one).
    await app.fd.data.run("UPDATE users SET sso_connection_id = NULL WHERE email = 'sso@demo.test'");
    const init = await call(sso, 'samlInit', '/ws/account/saml-init', { email: 'sso@demo.test' });
    const request = new URL(init.url as string, 'http://localhost').searchParams.get('request')!;
    const done = await sso.send({
      method: 'POST',
      url: '/dev/idp',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `request=${encodeURIComponent(request)}`,
    });
    expect(done.statusCode).toBe(303);
    // A fresh session (the answer names its user type): only single sign-on stands between it and the offer.
    expect(await call(sso, 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'NO_OFFER', userType: 'TECHNICIAN' });
    expect(await call(sso, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {})).toEqual({ resultCode: 'NOT_ALLOWED' });
    // Control: a password account's fresh session is offered one.
    expect(await call(await signedIn(), 'passkeyOffer', '/ws/account/passkey/offer')).toEqual({ resultCode: 'OFFER', userType: 'TECHNICIAN' });
  });
});

describe('signing in with a passkey alone', () => {
  it('signs in from the autofill request (discoverable), and satisfies MFA for an account that has it', async () => {
    // tech@ asks for TOTP after a password; a passkey verifies its user, so it is both factors.
    const setupBrowser = client(app);
    const mfa = await call(setupBrowser, 'login', '/ws/account/login', { email: 'tech@demo.test', password: PASSWORD });
    expect(mfa.resultCode).toBe('MFA_REQUIRED');
    await app.fd.data.run("UPDATE users SET mfa_required = 0 WHERE email = 'tech@demo.test'");
    const key = await enrol(await signedIn('tech@demo.test'));
    await app.fd.data.run("UPDATE users SET mfa_required = 1 WHERE email = 'tech@demo.test'");

    const visitor = client(app);
    const request = await loginOptions(visitor);
    expect(request).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(request.allowCredentials ?? []).toEqual([]);
    const res = await visitor.post('/ws/account/passkey/login', { credentialJson: key.assert(request), staySignedIn: true });
    // The answer also says which credentials still sign the account in (issue 37's signals).
    expect(res.json()).toMatchObject({ resultCode: 'SUCCESS', userType: 'TECHNICIAN', passkeySignals: { allAcceptedCredentialIds: [key.credentialId] } });
    expect(visitor.cookies.get('fd_session')).toBeDefined();
    expect((await visitor.get('/ws/account/session')).json()).toMatchObject({ user: { email: 'tech@demo.test' } });
    const row = await app.fd.data.get<Body>('SELECT sign_count, last_used_at FROM passkeys WHERE credential_id = ?', [key.credentialId]);
    expect(row).toEqual({ sign_count: 1, last_used_at: clock });
  });

  it("email first: the options name no credential and are alike for every email; only that account's passkey signs in with them", async () => {
    const key = await enrol(await signedIn());
    const visitor = client(app);
    const request = await loginOptions(visitor, 'NoMFA@demo.test');
    expect(request.allowCredentials).toBeUndefined();
    expect(await passkeyLogin(visitor, key.assert(request))).toMatchObject({ resultCode: 'SUCCESS', userType: 'TECHNICIAN' });
    // An account with a passkey, one without, an unknown email, no email: the same shape, no ids.
    const shapes = await Promise.all(
      ['nomfa@demo.test', 'tech@demo.test', 'nobody@demo.test', undefined].map(async (email) => Object.keys(await loginOptions(client(app), email)).sort()),
    );
    expect(new Set(shapes.map((keys) => keys.join()))).toEqual(new Set(['challenge,rpId,timeout,userVerification']));
    // The email binds the challenge: options asked for another email do not take this passkey.
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor, 'tech@demo.test')))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
  });

  it("answers like login for the account's state: disabled, moved, expired trial", async () => {
    const key = await enrol(await signedIn());
    const cases: [string, string][] = [
      ["state = 'disabled'", 'APP_USER_NOT_ENABLED'],
      ["moved_url = 'http://127.0.0.1:{PORT}/login?moved=1', state = 'active'", 'ACCOUNT_MOVED'],
      [`moved_url = NULL, trial_expires_at = ${T0 - 1}`, 'TRIAL_EXPIRED'],
    ];
    for (const [change, code] of cases) {
      await app.fd.data.run(`UPDATE users SET ${change} WHERE email = 'nomfa@demo.test'`);
      const visitor = client(app);
      expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe(code);
    }
  });
});

describe('attacks on passkey sign-in', () => {
  let key: ReturnType<typeof softPasskey>;
  beforeEach(async () => {
    key = await enrol(await signedIn());
  });

  it('a replayed assertion is refused, also when sent many times at once; exactly one signs in', async () => {
    const visitor = client(app);
    const assertion = key.assert(await loginOptions(visitor));
    const answers = await Promise.all(Array.from({ length: 6 }, () => visitor.post('/ws/account/passkey/login', { credentialJson: assertion })));
    const codes = answers.map((r) => (r.json() as Body).resultCode);
    expect(codes.filter((c) => c === 'SUCCESS')).toHaveLength(1);
    expect(codes.filter((c) => c === 'AUTHENTICATION_FAILURE')).toHaveLength(5);
    expect(await passkeyLogin(visitor, assertion)).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    // Control: the next ceremony, with a new challenge, signs in; the replay did not mark the key as cloned.
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
  });

  it('a challenge works only in the browser that asked for it', async () => {
    const asker = client(app);
    const assertion = key.assert(await loginOptions(asker));
    expect(await passkeyLogin(client(app), assertion)).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect((await passkeyLogin(asker, assertion)).resultCode).toBe('SUCCESS');
  });

  it('an assertion for another origin or RP ID is refused, whatever the Host header says', async () => {
    const visitor = client(app);
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { origin: 'https://evil.test' }))).toEqual({
      resultCode: 'AUTHENTICATION_FAILURE',
    });
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { rpId: 'evil.test' }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    const forged = await visitor.post(
      '/ws/account/passkey/login',
      { credentialJson: key.assert(await loginOptions(visitor), { origin: 'http://evil.test' }) },
      { headers: { host: 'localhost', 'x-forwarded-host': 'evil.test' } },
    );
    expect(forged.json()).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
  });

  it("a credential of another account is refused: options asked for another email, or a user handle that is not the credential's", async () => {
    const visitor = client(app);
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor, 'user@demo.test')))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    const uid = (await app.fd.data.get<{ uid: string }>("SELECT uid FROM users WHERE email = 'user@demo.test'"))!;
    const otherHandle = Buffer.from(uid.uid).toString('base64url');
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { userHandle: otherHandle }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    // Control: the owner's email, and the owner's handle.
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor, 'nomfa@demo.test')))).resultCode).toBe('SUCCESS');
  });

  it('user verification is required: an assertion without it is refused', async () => {
    // A key that cannot verify its user is refused at registration; stored by hand, it is refused at sign-in too.
    const noUv = softPasskey({ userVerification: false });
    await app.fd.data.run(
      "INSERT INTO passkeys (user_id, credential_id, public_key, aaguid, device_type, created_at) VALUES ((SELECT id FROM users WHERE email = 'nomfa@demo.test'), ?, ?, ?, 'singleDevice', ?)",
      [noUv.credentialId, noUv.publicKeyCose, noUv.aaguid, T0],
    );
    const visitor = client(app);
    expect(await passkeyLogin(visitor, noUv.assert(await loginOptions(visitor)))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
  });

  it('a counter that goes backwards marks the passkey as cloned: refused from then on', async () => {
    const visitor = client(app);
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { counter: 10 }))).resultCode).toBe('SUCCESS');
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { counter: 5 }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor), { counter: 11 }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    const row = (await app.fd.data.get<Body>('SELECT clone_suspected_at FROM passkeys WHERE credential_id = ?', [key.credentialId]))!;
    expect(row.clone_suspected_at).toBe(clock);
  });

  it('a security key set up at /mfa/setup keeps its AAGUID and backup state; a counter going backwards marks it a clone, refused everywhere', async () => {
    const browser = client(app);
    const setup = await call(browser, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
    const userToken = setup.userToken as string;
    const init = await call(browser, 'configWebauthnInit', '/ws/account/config-webauthn-init', { userToken });
    const { publicKey } = JSON.parse(init.createCredentialsJson as string) as { publicKey: Creation };
    const securityKey = softPasskey({ backedUp: false });
    const tokenResponse = JSON.parse(securityKey.register(publicKey)) as unknown;
    const done = await call(browser, 'configWebauthnComplete', '/ws/account/config-webauthn-complete', {
      setupMfaRequest: { userToken },
      webAuthnRegistrationResponse: { registrationToken: init.registrationToken, deviceName: 'Key', tokenResponse },
    });
    expect(done.resultCode).toBe('SUCCESS');
    const stored = () =>
      app.fd.data.get<Body>('SELECT aaguid, device_type, backed_up, sign_count, clone_suspected_at FROM mfa_enrolments WHERE credential_id = ?', [
        securityKey.credentialId,
      ]);
    expect(await stored()).toEqual({ aaguid: securityKey.aaguid, device_type: 'singleDevice', backed_up: 0, sign_count: 0, clone_suspected_at: null });

    /** The key as the second factor of a password sign-in. */
    const secondFactor = async (counter: number) => {
      const visitor = client(app);
      const mfa = await call(visitor, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
      expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'U2F_TOKEN' });
      const { challenge } = (JSON.parse(mfa.credsRequest as string) as { publicKey: { challenge: string } }).publicKey;
      const publicKeyCredentialJson = securityKey.assert({ challenge, rpId: 'localhost' }, { counter });
      return (await call(visitor, 'u2fLogin', '/ws/account/u2f-login', { loginToken: mfa.loginToken, publicKeyCredentialJson })).resultCode;
    };
    // Controls: it signs in alone as a passkey, and as the second factor, its counter moving forward.
    const visitor = client(app);
    expect((await passkeyLogin(visitor, securityKey.assert(await loginOptions(visitor), { counter: 10 }))).resultCode).toBe('SUCCESS');
    expect(await secondFactor(11)).toBe('SUCCESS');
    expect(await stored()).toMatchObject({ sign_count: 11, clone_suspected_at: null });
    // A counter that goes backwards: a clone. Marked, and refused from then on, as a passkey and as the second factor.
    expect(await passkeyLogin(visitor, securityKey.assert(await loginOptions(visitor), { counter: 5 }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect(await stored()).toMatchObject({ sign_count: 11, clone_suspected_at: clock });
    expect(await passkeyLogin(visitor, securityKey.assert(await loginOptions(visitor), { counter: 20 }))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    expect(await secondFactor(21)).not.toBe('SUCCESS');
  });

  it('a passkey of a single sign-on account never signs in', async () => {
    await app.fd.data.run("UPDATE users SET sso_state = 'CONFIGURED', sso_idp_name = 'Demo IdP' WHERE email = 'nomfa@demo.test'");
    const visitor = client(app);
    expect(await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
  });

  it('bad JSON is MALFORMED_CREDENTIAL and costs nothing; refused assertions are limited per credential (429), not per address', async () => {
    const visitor = client(app, '203.0.113.9');
    for (let i = 0; i < 40; i++) expect(await passkeyLogin(visitor, '{')).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    // Control: junk from this address locks nobody out.
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
    // Ten refused assertions of this credential (made for another origin), from ten addresses: the eleventh try is 429.
    for (let i = 0; i < 10; i++) {
      const elsewhere = client(app, `203.0.113.${20 + i}`);
      expect(await passkeyLogin(elsewhere, key.assert(await loginOptions(elsewhere), { origin: 'https://evil.test' }))).toEqual({
        resultCode: 'AUTHENTICATION_FAILURE',
      });
    }
    const limited = await visitor.post('/ws/account/passkey/login', { credentialJson: key.assert(await loginOptions(visitor)) });
    expect(limited.statusCode).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // The window ends: the owner signs in again, and that success forgives the count.
    clock += 3600_000;
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor)))).resultCode).toBe('SUCCESS');
    expect(await app.fd.data.get("SELECT count FROM counters WHERE scope = 'passkey-credential'")).toBeUndefined();
  });
});
