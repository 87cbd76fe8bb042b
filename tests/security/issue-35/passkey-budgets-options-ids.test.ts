/**
 * The attack of issue 35, findings 3 and 5 and the credential ids of finding 8, replayed against the
 * real server (docs/security.md): junk assertions from one address no longer switch passkeys off for
 * everyone behind it (refused tries count per credential and per account), passkey options tell
 * nothing about an account and name no credential, and a credential id belongs to one account. Each
 * refusal has its control: the owner's passkey signs in.
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { isUniqueViolation } from '../../../server/db/data';
import { findCredential } from '../../../server/db/passkeys';
import { LIMITS } from '../../../server/services/limits';
import { call, demoAppPerFile } from '../../server/demo-helpers';
import { makeApp, PASSWORD } from '../../server/helpers';
import { enrol, loginOptions, passkeyLogin, register, signedIn, signInWith } from '../../server/passkey-steps';
import { softPasskey } from '../../server/soft-passkey';
import { client, figure, reportFigures } from '../attack-helpers';

const T0 = Date.UTC(2026, 10, 28, 9, 0, 0);
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

const OFFICE = '203.0.113.50';

describe('3. passkey sign-in switched off for a whole address with junk', () => {
  it('100 malformed assertions from an office address: the owner behind it still signs in (the real per-address limits on)', async () => {
    const limited = await makeApp();
    try {
      const key = await enrol(await signedIn(limited, 'nomfa@demo.test', '192.0.2.1'));
      const junk = client(limited, OFFICE);
      const answers = new Map<number, number>();
      for (let i = 0; i < 100; i++) {
        const res = await junk.post('/ws/account/passkey/login', { credentialJson: 'x' });
        answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      }
      expect([...answers]).toEqual([[200, 100]]);
      expect(await signInWith(limited, key, OFFICE)).toBe('SUCCESS');
      figure(3, "the owner's passkey from an address after 100 malformed assertions from it", '429 for an hour (after 30)', 'SUCCESS');
      // Well-formed assertions of credentials that do not exist cost no credential anything either (issue 37: their
      // answer says the credential is unknown, so the browser may forget it).
      for (let i = 0; i < 40; i++) expect(await signInWith(limited, softPasskey(), OFFICE)).toBe('UNKNOWN_CREDENTIAL');
      expect(await signInWith(limited, key, OFFICE)).toBe('SUCCESS');
    } finally {
      await limited.close();
    }
  });

  it('refused assertions count per credential and per account, from any address; other accounts are untouched', async () => {
    const owner = await signedIn(app);
    const keys = [await enrol(owner)];
    for (let i = 0; i < 4; i++) keys.push(await enrol(await signedIn(app)));
    const refuse = (key: (typeof keys)[number], i: number) => signInWithOrigin(key, `198.51.100.${i + 1}`);
    for (let i = 0; i < LIMITS.passkeyFailuresPerCredentialPerHour; i++) expect(await refuse(keys[0]!, i)).toBe(200);
    // The eleventh try of that credential is refused before it is looked at, even a good one.
    const answer = await client(app).post('/ws/account/passkey/login', { credentialJson: keys[0]!.assert(await loginOptions(client(app))) });
    expect(answer.statusCode).toBe(429);
    // Control: the account's other passkeys still sign in (and each success forgives its own count and the account's).
    expect(await signInWith(app, keys[1]!)).toBe('SUCCESS');
    figure(
      3,
      'refused assertions of one passkey before it is refused (429), from 10 addresses',
      '30 per address (any assertion, also junk)',
      `${LIMITS.passkeyFailuresPerCredentialPerHour} per credential, ${LIMITS.passkeyFailuresPerAccountPerHour} per account; junk and unknown ids not counted`,
    );
    // Per account: 30 refusals across three credentials, then a fourth credential of the account is refused too.
    for (const key of keys.slice(1, 4)) for (let i = 0; i < 10; i++) expect(await refuse(key, i)).toBe(200);
    expect((await client(app).post('/ws/account/passkey/login', { credentialJson: keys[4]!.assert(await loginOptions(client(app))) })).statusCode).toBe(429);
    // Control: another account's passkey, and the owner's password.
    expect(await signInWith(app, await enrol(await signedIn(app, 'user@demo.test')))).toBe('SUCCESS');
    expect((await call(client(app), 'login', '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).resultCode).toBe('SUCCESS');
    clock += 3600_000;
    expect(await signInWith(app, keys[0]!)).toBe('SUCCESS');
  });
});

/** A well-formed assertion of the credential made for another origin (refused after its signature is read): the status. */
async function signInWithOrigin(key: ReturnType<typeof softPasskey>, address: string): Promise<number> {
  const browser = client(app, address);
  const res = await browser.post('/ws/account/passkey/login', { credentialJson: key.assert(await loginOptions(browser), { origin: 'https://evil.test' }) });
  if (res.statusCode === 200) expect(res.json()).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
  return res.statusCode;
}

describe('5. passkey options tell which accounts have passkeys', () => {
  it('options for an unknown email, an account without passkeys and one with two are the same shape, with no credential', async () => {
    await enrol(await signedIn(app));
    await enrol(await signedIn(app));
    const answers = await Promise.all(['nobody@demo.test', 'tech@demo.test', 'nomfa@demo.test'].map((email) => loginOptions(client(app), email)));
    const ids = answers.map((o) => o.allowCredentials?.length ?? 0);
    expect(ids).toEqual([0, 0, 0]);
    expect(new Set(answers.map((o) => JSON.stringify(Object.keys(o).sort())))).toEqual(
      new Set([JSON.stringify(['challenge', 'rpId', 'timeout', 'userVerification'])]),
    );
    figure(
      5,
      'credential ids in passkey options before authentication (unknown email / account with 2 passkeys)',
      '1 decoy without transports / 2 with transports',
      `${ids[0]} / ${ids[2]} (no allowCredentials: the same answer for every email)`,
    );
  });

  it("control: email first, the account's discoverable passkey signs in; another account's passkey does not", async () => {
    const key = await enrol(await signedIn(app));
    const visitor = client(app);
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor, 'nomfa@demo.test')))).resultCode).toBe('SUCCESS');
    expect((await passkeyLogin(visitor, key.assert(await loginOptions(visitor, 'user@demo.test')))).resultCode).toBe('AUTHENTICATION_FAILURE');
  });
});

describe('8. security-key credential ids are not unique across accounts', () => {
  it("another account registering the victim's credential id, as a passkey or as an MFA security key: refused", async () => {
    const victim = await enrol(await signedIn(app, 'user@demo.test'));
    // A crafted registration: the attacker's own key pair under the victim's credential id.
    const copy = softPasskey({ credentialId: victim.credentialId });
    expect(await register(await signedIn(app), copy)).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    // The same id as setup@'s security key at MFA setup.
    const browser = client(app);
    const setup = await call(browser, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
    const init = await call(browser, 'configWebauthnInit', '/ws/account/config-webauthn-init', { userToken: setup.userToken });
    const { publicKey } = JSON.parse(String(init.createCredentialsJson)) as { publicKey: Parameters<typeof copy.register>[0] };
    const done = await call(browser, 'configWebauthnComplete', '/ws/account/config-webauthn-complete', {
      setupMfaRequest: { userToken: setup.userToken },
      webAuthnRegistrationResponse: {
        registrationToken: init.registrationToken,
        deviceName: 'Key',
        tokenResponse: JSON.parse(copy.register(publicKey)) as unknown,
      },
    });
    expect(done).toEqual({ resultCode: 'MALFORMED_CREDENTIAL' });
    figure(
      8,
      'a second account registering a credential id another account holds (passkey / MFA security key)',
      'accepted / accepted (findCredential took the first row)',
      'refused / refused (MALFORMED_CREDENTIAL)',
    );
    // Control: the victim's passkey signs in as ever.
    expect(await signInWith(app, victim)).toBe('SUCCESS');
  });

  it('the security keys of MFA have a unique index; an id two rows hold (from before it) signs nobody in', async () => {
    const [a, b] = await Promise.all(
      ['setup@demo.test', 'tech@demo.test'].map((e) => app.fd.data.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [e])),
    );
    const insertKey = (userId: number, credentialId: string, publicKey: string) =>
      app.fd.data.run(
        "INSERT INTO mfa_enrolments (user_id, type, position, credential_id, public_key, sign_count, device_name, created_at) VALUES (?, 'U2F_TOKEN', 5, ?, ?, 0, 'Key', ?)",
        [userId, credentialId, publicKey, T0],
      );
    const key = softPasskey();
    await insertKey(a!.id, key.credentialId, key.publicKeyCose);
    const refused = await insertKey(b!.id, key.credentialId, softPasskey().publicKeyCose).then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(isUniqueViolation(refused)).toBe(true);
    // Control: the one key signs setup@ in as a passkey.
    expect(await signInWith(app, key)).toBe('SUCCESS');
    // A passkey row with the same id (the tables cannot share an index): ambiguous, so nobody.
    await app.fd.data.run(
      "INSERT INTO passkeys (user_id, credential_id, public_key, aaguid, device_type, created_at) VALUES (?, ?, ?, '00000000-0000-0000-0000-000000000000', 'singleDevice', ?)",
      [b!.id, key.credentialId, softPasskey().publicKeyCose, T0],
    );
    expect(await findCredential(app.fd.data, key.credentialId)).toBeUndefined();
    expect(await signInWith(app, key)).toBe('AUTHENTICATION_FAILURE');
  });
});

reportFigures('3-issue-35-passkeys-b', 'The attack of issue 35, findings 3, 5 and 8 (passkeys)');
