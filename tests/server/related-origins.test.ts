/**
 * One RP ID for every host (issue 37, services/relyingParty.ts): registration and sign-in, passkeys and
 * MFA security keys, use the deployment's RP ID on every host (the demo: localhost, shared by
 * branded.localhost); /.well-known/webauthn lists the origins that use it; a passkey made on one
 * branded host signs in on another. The origin stays the configured public URL of the host the visitor
 * used. Without a shared RP ID each host is its own, as before, and there is nothing to list.
 * (Chromium honouring the list: tests/e2e/passkeys-ux.spec.ts.)
 */
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError } from '../../server/config';
import { client, type Client } from '../security/attack-helpers';
import { demoAppPerFile } from './demo-helpers';
import { expectContract, makeApp, PASSWORD, TEST_APP_SECRET } from './helpers';
import type { Creation, RequestOptions } from './passkey-steps';
import { softPasskey } from './soft-passkey';

const T0 = Date.UTC(2026, 10, 29, 9, 0, 15);
let clock = T0;
let app: FastifyInstance;
demoAppPerFile({ now: () => clock, rewind: () => (clock = T0), ready: (made) => (app = made) });

const LOCALHOST = { host: 'localhost:8080', origin: 'http://localhost:8080' };
const BRANDED = { host: 'branded.localhost:8080', origin: 'http://branded.localhost:8080' };
type Host = typeof LOCALHOST;

/** One browser's call on a host (its Origin too, as a browser's fetch sends it): answered 200 within its contract. */
async function on(browser: Client, host: Host, operation: string, url: string, payload: unknown = {}): Promise<Record<string, unknown>> {
  const res = await browser.post(url, payload, { headers: { host: host.host, origin: host.origin } } as Partial<InjectOptions>);
  expect(res.statusCode, res.body).toBe(200);
  expectContract(operation, res.json());
  return res.json() as Record<string, unknown>;
}

const wellKnown = (target: FastifyInstance, host: string) => target.inject({ url: '/.well-known/webauthn', headers: { host } });

describe('/.well-known/webauthn', () => {
  it('lists the public origin and every enabled branded host, as JSON, on every host served', async () => {
    for (const host of ['localhost:8080', 'branded.localhost:8080', '127.0.0.1:8080']) {
      const res = await wellKnown(app, host);
      expect(res.statusCode, host).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json(;|$)/);
      // closed.localhost's row is disabled: it makes no passkeys.
      expect(res.json()).toEqual({ origins: ['http://localhost:8080', 'http://branded.localhost:8080'] });
    }
    // A host the server does not answer for gets nothing (the Host allow-list comes first).
    expect((await wellKnown(app, 'evil.test')).statusCode).toBe(421);
  });
});

describe('a passkey made on one host signs in on another', () => {
  it('branded.localhost registers with RP ID localhost; the passkey signs in on localhost and back on branded.localhost', async () => {
    const browser = client(app);
    expect((await on(browser, BRANDED, 'login', '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD })).resultCode).toBe('SUCCESS');
    const creation = (await on(browser, BRANDED, 'passkeyRegisterOptions', '/ws/account/passkey/register-options')).options as Creation;
    expect(creation.rp.id).toBe('localhost');
    const key = softPasskey();
    const registered = await on(browser, BRANDED, 'passkeyRegister', '/ws/account/passkey', {
      credentialJson: key.register(creation, { origin: BRANDED.origin }),
    });
    expect(registered.resultCode).toBe('SUCCESS');

    for (const host of [LOCALHOST, BRANDED]) {
      const visitor = client(app);
      const request = (await on(visitor, host, 'passkeyLoginOptions', '/ws/account/passkey/login-options')).options as RequestOptions;
      expect(request.rpId).toBe('localhost');
      const answer = await on(visitor, host, 'passkeyLogin', '/ws/account/passkey/login', { credentialJson: key.assert(request, { origin: host.origin }) });
      expect(answer.resultCode, host.host).toBe('SUCCESS');
    }
    // The origin is the host's own: an assertion made on branded.localhost, sent to localhost, is refused.
    const visitor = client(app);
    const request = (await on(visitor, LOCALHOST, 'passkeyLoginOptions', '/ws/account/passkey/login-options')).options as RequestOptions;
    const answer = await on(visitor, LOCALHOST, 'passkeyLogin', '/ws/account/passkey/login', {
      credentialJson: key.assert(request, { origin: BRANDED.origin }),
    });
    expect(answer.resultCode).toBe('AUTHENTICATION_FAILURE');
  });

  it("an MFA security key set up on branded.localhost uses the same RP ID, hinted as a security key, and answers localhost's second factor", async () => {
    const setup = client(app);
    const first = await on(setup, BRANDED, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
    expect(first.resultCode).toBe('SETUP_MFA');
    const init = await on(setup, BRANDED, 'configWebauthnInit', '/ws/account/config-webauthn-init', { userToken: first.userToken });
    const creation = (JSON.parse(String(init.createCredentialsJson)) as { publicKey: Creation & { hints: string[] } }).publicKey;
    expect(creation).toMatchObject({ rp: { id: 'localhost' }, hints: ['security-key'] });
    const key = softPasskey({ userVerification: false });
    const done = await on(setup, BRANDED, 'configWebauthnComplete', '/ws/account/config-webauthn-complete', {
      setupMfaRequest: { userToken: first.userToken },
      webAuthnRegistrationResponse: {
        registrationToken: init.registrationToken,
        deviceName: 'Key',
        tokenResponse: JSON.parse(key.register(creation, { origin: BRANDED.origin })) as unknown,
      },
    });
    expect(done.resultCode).toBe('SUCCESS');

    const browser = client(app);
    const mfa = await on(browser, LOCALHOST, 'login', '/ws/account/login', { email: 'setup@demo.test', password: PASSWORD });
    expect(mfa).toMatchObject({ resultCode: 'MFA_REQUIRED', mfaType: 'U2F_TOKEN' });
    const request = (JSON.parse(String(mfa.credsRequest)) as { publicKey: RequestOptions & { hints: string[] } }).publicKey;
    expect(request).toMatchObject({ rpId: 'localhost', hints: ['security-key'], allowCredentials: [{ id: key.credentialId }] });
    const signedIn = await on(browser, LOCALHOST, 'u2fLogin', '/ws/account/u2f-login', {
      loginToken: mfa.loginToken,
      publicKeyCredentialJson: key.assert(request, { origin: LOCALHOST.origin }),
    });
    expect(signedIn.resultCode).toBe('SUCCESS');
  });
});

describe('without a shared RP ID (WEBAUTHN_RP_ID unset outside demo mode)', () => {
  let own: FastifyInstance;
  beforeAll(async () => {
    own = await makeApp({ devTools: false, seed: true, appSecret: TEST_APP_SECRET, publicUrl: 'http://localhost:8080', now: () => clock, rateLimit: false });
  });
  afterAll(async () => {
    await own.close();
  });

  it('each host is its own RP ID, and /.well-known/webauthn has nothing to list', async () => {
    expect((await wellKnown(own, 'localhost:8080')).statusCode).toBe(404);
    for (const [host, rpId] of [
      [LOCALHOST, 'localhost'],
      [BRANDED, 'branded.localhost'],
    ] as const) {
      const options = (await on(client(own), host, 'passkeyLoginOptions', '/ws/account/passkey/login-options')).options as RequestOptions;
      expect(options.rpId, host.host).toBe(rpId);
    }
  });

  it("refuses an RP ID that PUBLIC_URL's host cannot claim", async () => {
    await expect(makeApp({ webauthnRpId: 'example.test', publicUrl: 'https://signin.other.test' })).rejects.toThrow(ConfigError);
  });
});
