/**
 * Issue 28: "an MFA change revokes every trusted device". A browser trusted with "Don't ask again on
 * this device" skips the second factor until the account's MFA changes in any self-service way: a
 * method set up at /mfa/setup (an authenticator app, or texts to a new phone), a passkey added, a new
 * set of recovery codes (services/revocation.ts revokeOnMfaChange). Control: the same browser still
 * skips it when nothing changed, also after a recovery-code sign-in (using a code changes nothing).
 */
import type { FastifyInstance } from 'fastify';
import { describe, expect, it } from 'vitest';
import { client, type Client } from '../security/attack-helpers';
import { call, demoAppPerFile, outbox, T0, totp } from './demo-helpers';
import { count, PASSWORD } from './helpers';
import { softPasskey } from './soft-passkey';

let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

type Creation = Parameters<ReturnType<typeof softPasskey>['register']>[0];
const EMAIL = 'setup@demo.test';

const password = (browser: Client) => call(browser, 'login', '/ws/account/login', { email: EMAIL, password: PASSWORD });
const signOut = async (browser: Client) => void (await browser.get('/ws/account/logout'));
/** The next 30-second step: a TOTP code is good once. */
const nextCode = async (key: string) => totp((clock += 30_000), key);

/** setup@ sets up an authenticator app at /mfa/setup in this browser: its key and the recovery codes shown. */
async function setUpTotp(browser: Client): Promise<{ key: string; codes: string[] }> {
  const setup = await password(browser);
  expect(setup.resultCode).toBe('SETUP_MFA');
  const { key } = (await call(browser, 'configTotp', '/ws/account/config-totp', { userToken: setup.userToken })) as { key: string };
  clock += 30_000;
  const done = await call(browser, 'loginTotp', '/ws/account/login/totp', {
    key,
    userToken: setup.userToken,
    code: await totp(clock - 30_000, key),
    secondaryCode: await totp(clock, key),
  });
  expect(done.resultCode).toBe('SUCCESS');
  const shown = await call(browser, 'recoveryCodesCreate', '/ws/account/recovery-codes', {});
  expect(shown.resultCode).toBe('SUCCESS');
  return { key, codes: shown.codes as string[] };
}

/** setup@ sets up texts to a new phone at /mfa/setup in this browser (change-phone, then the code sent to it). */
async function setUpNewPhone(browser: Client): Promise<void> {
  const setup = await password(browser);
  expect(setup.resultCode).toBe('SETUP_MFA');
  const userToken = setup.userToken;
  const phoneNumber = '+14155550177';
  const changed = await browser.send({ method: 'PATCH', url: '/ws/account/change-phone', payload: { userToken, phoneNumber } });
  expect(changed.json()).toEqual({ resultCode: 'SUCCESS', phoneNumber });
  expect(await call(browser, 'configSmsotp', '/ws/account/config-smsotp', { userToken })).toEqual({ resultCode: 'SUCCESS', sendSms: true });
  const [text] = await outbox(app, phoneNumber);
  expect((await call(browser, 'loginSmsotp', '/ws/account/login/smsotp', { userToken, code: text!.code })).resultCode).toBe('SUCCESS');
  expect((await app.fd.data.get<{ phone: string }>('SELECT phone FROM users WHERE email = ?', [EMAIL]))?.phone).toBe(phoneNumber);
}

/** A second-factor sign-in in this browser, asking (or not) to be trusted. */
async function signInWithTotp(browser: Client, key: string, trust: boolean): Promise<void> {
  const body = await password(browser);
  expect(body.resultCode).toBe('MFA_REQUIRED');
  await call(browser, 'mfaTrustDevice', '/ws/account/mfa-login/trust-device', { loginToken: body.loginToken, trust });
  expect((await call(browser, 'mfaLogin', '/ws/account/mfa-login', { loginToken: body.loginToken, code: await nextCode(key) })).resultCode).toBe('SUCCESS');
}

/** Whether this browser's next password sign-in skips the second factor (it signs out again after). */
async function skipsSecondFactor(browser: Client): Promise<boolean> {
  const body = await password(browser);
  if (body.resultCode === 'SUCCESS') await signOut(browser);
  return body.resultCode === 'SUCCESS';
}

/** The account's methods go (as the admin's reset-mfa does, but leaving the trusted browsers): the next sign-in sets one up. */
const dropMethods = () => app.fd.data.run('DELETE FROM mfa_enrolments WHERE user_id = (SELECT id FROM users WHERE email = ?)', [EMAIL]);

describe('every MFA change revokes the trusted browsers', () => {
  const changes: [string, (key: string, codes: string[]) => Promise<void>][] = [
    [
      'an authenticator app set up at /mfa/setup',
      async () => {
        await dropMethods();
        await setUpTotp(client(app));
      },
    ],
    [
      'texts to a new phone set up at /mfa/setup',
      async () => {
        await dropMethods();
        await setUpNewPhone(client(app));
      },
    ],
    [
      'a passkey added',
      async (key) => {
        const other = client(app);
        await signInWithTotp(other, key, false);
        const options = await call(other, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {});
        expect(options.resultCode).toBe('SUCCESS');
        const added = await call(other, 'passkeyRegister', '/ws/account/passkey', { credentialJson: softPasskey().register(options.options as Creation) });
        expect(added.resultCode).toBe('SUCCESS');
      },
    ],
    [
      'new recovery codes',
      async (_key, codes) => {
        const other = client(app);
        const body = await password(other);
        expect(body.resultCode).toBe('MFA_REQUIRED');
        const used = await call(other, 'mfaRecoveryLogin', '/ws/account/mfa-login/recovery-code', { loginToken: body.loginToken, recoveryCode: codes[0] });
        expect(used.resultCode).toBe('SUCCESS');
        // Control: a recovery code used elsewhere changes nothing.
        expect(await skipsSecondFactor(trusted), 'after a recovery-code sign-in').toBe(true);
        expect((await call(other, 'recoveryCodesCreate', '/ws/account/recovery-codes', {})).resultCode).toBe('SUCCESS');
      },
    ],
  ];
  let trusted: Client;

  it.each(changes)('%s: the trusted browser is asked for the second factor again', async (_what, change) => {
    const { key, codes } = await setUpTotp(client(app));
    trusted = client(app);
    await signInWithTotp(trusted, key, true);
    await signOut(trusted);
    // Control: without a change the trusted browser skips the second factor, again and again.
    expect(await skipsSecondFactor(trusted)).toBe(true);
    expect(await skipsSecondFactor(trusted)).toBe(true);
    await change(key, codes);
    const after = await password(trusted);
    expect(after.resultCode).toBe('MFA_REQUIRED');
    expect(trusted.cookies.has('__Host-fd_trust')).toBe(false);
    expect(
      await count(app, 'SELECT count(*) AS n FROM trusted_devices WHERE revoked_at IS NULL AND user_id = (SELECT id FROM users WHERE email = ?)', [EMAIL]),
    ).toBe(0);
  });

  it('control: other sign-ins of the account with its second factor change nothing: the trust stays', async () => {
    const { key } = await setUpTotp(client(app));
    trusted = client(app);
    await signInWithTotp(trusted, key, true);
    await signOut(trusted);
    const other = client(app);
    await signInWithTotp(other, key, false);
    await signOut(other);
    expect(await skipsSecondFactor(trusted)).toBe(true);
  });
});
