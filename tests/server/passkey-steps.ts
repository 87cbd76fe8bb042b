/**
 * The steps of a browser with passkeys, as the server suites play them (tests/server/passkeys.test.ts,
 * tests/security/issue-35/): sign in with a password, add a passkey through the offer's calls, ask for
 * sign-in options, sign in with an assertion. The software authenticator is soft-passkey.ts.
 */
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';
import { client, type Client } from '../security/attack-helpers';
import { call } from './demo-helpers';
import { PASSWORD } from './helpers';
import { softPasskey } from './soft-passkey';

export type Body = Record<string, unknown>;
export type Creation = { challenge: string; rp: { id?: string }; user: { id: string } };
export type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: { id: string }[] };
export type SoftPasskey = ReturnType<typeof softPasskey>;

/** A browser signed in with a password (nomfa@ has no second factor). */
export async function signedIn(app: FastifyInstance, email = 'nomfa@demo.test', address?: string): Promise<Client> {
  const browser = client(app, address);
  const body = await call(browser, 'login', '/ws/account/login', { email, password: PASSWORD });
  expect(body.resultCode).toBe('SUCCESS');
  return browser;
}

/** The answer of adding a passkey with this browser's session (the offer's two calls). */
export async function register(browser: Client, key: SoftPasskey): Promise<Body> {
  const options = await call(browser, 'passkeyRegisterOptions', '/ws/account/passkey/register-options', {});
  expect(options.resultCode).toBe('SUCCESS');
  return call(browser, 'passkeyRegister', '/ws/account/passkey', { credentialJson: key.register(options.options as Creation) });
}

/** Adds a passkey to the browser's account through the offer's calls. */
export async function enrol(browser: Client, key = softPasskey()): Promise<SoftPasskey> {
  expect(await register(browser, key)).toMatchObject({ resultCode: 'SUCCESS' });
  return key;
}

export async function loginOptions(browser: Client, email?: string): Promise<RequestOptions> {
  const body = await call(browser, 'passkeyLoginOptions', '/ws/account/passkey/login-options', email ? { email } : {});
  return body.options as RequestOptions;
}

export function passkeyLogin(browser: Client, credentialJson: string): Promise<Body> {
  return call(browser, 'passkeyLogin', '/ws/account/passkey/login', { credentialJson });
}

/** A passkey sign-in from a new browser (optionally from this address): its answer's result code. */
export async function signInWith(app: FastifyInstance, key: SoftPasskey, address?: string): Promise<string> {
  const browser = client(app, address);
  return String((await passkeyLogin(browser, key.assert(await loginOptions(browser)))).resultCode);
}
