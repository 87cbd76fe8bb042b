/**
 * The demo tenant's single sign-on as DEMO-TENANT.md has it: sso@demo.test through the demo SAML IdP
 * (/dev/saml-idp: a signed AuthnRequest, a signed response, the ACS) and oidc@demo.test through the
 * demo OpenID provider (/dev/oidc: code flow with PKCE, the ID token saying email_verified), both with
 * the real protocol code, seeded on a fresh start and again by POST /dev/reset. The demo app listens
 * on a port of its own (openid-client reads the provider's discovery document over HTTP).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { freePort } from '../../scripts/free-port';
import { makeApp } from './helpers';
import { action, Browser, field } from './sso/sso-helpers';

let app: FastifyInstance;
let base: string;

beforeAll(async () => {
  const port = await freePort();
  base = `http://localhost:${port}`;
  app = await makeApp({ publicPort: port, publicUrl: base });
  await app.listen({ port, host: '127.0.0.1' });
});
afterAll(async () => {
  await app?.close();
});

const json = (browser: Browser, url: string, body: unknown) =>
  browser.go(url, { method: 'POST', body: JSON.stringify(body), headers: { 'content-type': 'application/json', origin: base } });

async function signedInAs(browser: Browser): Promise<string | number> {
  const res = await browser.go('/ws/account/session');
  return res.status === 200 ? ((await res.json()) as { user: { email: string } }).user.email : res.status;
}

async function samlSignIn(browser: Browser): Promise<Response> {
  const auth = (await (await json(browser, '/ws/account/authentication-state', { email: 'sso@demo.test' })).json()) as Record<string, unknown>;
  expect(auth).toMatchObject({ authState: 'SSO', idpName: 'Demo IdP' });
  const started = (await (await json(browser, '/ws/account/saml-init', { email: 'sso@demo.test', returnTo: '/app/' })).json()) as { url: string };
  const sent = new URL(started.url);
  expect(`${sent.origin}${sent.pathname}`).toBe(`${base}/dev/saml-idp/sso`);
  expect(sent.searchParams.get('SAMLRequest')).toBeTruthy();
  expect(sent.searchParams.get('Signature')).toBeTruthy();
  const idpPage = await (await browser.go(started.url)).text();
  expect(idpPage).toContain('Continue as sso@demo.test');
  const posted = await (await browser.post(action(idpPage), { request: field(idpPage, 'request'), email: field(idpPage, 'email') })).text();
  expect(action(posted)).toMatch(new RegExp(`^${base}/sso/saml/\\d+/acs$`));
  return browser.post(action(posted), { SAMLResponse: field(posted, 'SAMLResponse'), RelayState: field(posted, 'RelayState') });
}

async function oidcSignIn(browser: Browser): Promise<Response> {
  const auth = (await (await json(browser, '/ws/account/authentication-state', { email: 'oidc@demo.test' })).json()) as Record<string, unknown>;
  expect(auth).toMatchObject({ authState: 'SSO', idpName: 'Demo OIDC' });
  const started = (await (await json(browser, '/ws/account/saml-init', { email: 'oidc@demo.test' })).json()) as { url: string };
  const url = new URL(started.url);
  expect(`${url.origin}${url.pathname}`).toBe(`${base}/dev/oidc/auth`);
  expect(url.searchParams.get('code_challenge_method')).toBe('S256');
  let res = await browser.go(url.href);
  const loginPage = await (await browser.go(res.headers.get('location') ?? '')).text();
  expect(loginPage).toContain('Continue as oidc@demo.test');
  res = await browser.post(action(loginPage), { email: 'oidc@demo.test' });
  for (let hops = 0; hops < 5 && res.status >= 300 && res.status < 400 && !(res.headers.get('location') ?? '').includes('/sso/oidc/'); hops++)
    res = await browser.go(res.headers.get('location') ?? '');
  const callback = res.headers.get('location') ?? '';
  expect(callback).toMatch(new RegExp(`^${base}/sso/oidc/\\d+/callback\\?`));
  return browser.go(callback);
}

describe('the demo tenant’s single sign-on', () => {
  it('sso@demo.test signs in through the demo SAML IdP', async () => {
    const browser = new Browser(base);
    const done = await samlSignIn(browser);
    expect(done.status, await done.clone().text()).toBe(303);
    expect(done.headers.get('location')).toBe('/app/');
    expect(await signedInAs(browser)).toBe('sso@demo.test');
  });

  it('oidc@demo.test signs in through the demo OpenID provider, whose ID token says the address is verified', async () => {
    const browser = new Browser(base);
    const done = await oidcSignIn(browser);
    expect(done.status, await done.clone().text()).toBe(303);
    expect(await signedInAs(browser)).toBe('oidc@demo.test');
  });

  it('POST /dev/reset seeds both connections again (a connection removed meanwhile comes back)', async () => {
    await app.fd.data.run('DELETE FROM sso_connections');
    await app.fd.data.run("UPDATE users SET sso_state = 'NONE', sso_connection_id = NULL WHERE email IN ('sso@demo.test', 'oidc@demo.test')");
    expect((await app.inject({ method: 'POST', url: '/dev/reset' })).statusCode).toBe(200);
    expect(await app.fd.data.all('SELECT name, protocol FROM sso_connections ORDER BY name')).toEqual([
      { name: 'Demo IdP', protocol: 'saml' },
      { name: 'Demo OIDC', protocol: 'oidc' },
    ]);
    const saml = new Browser(base);
    expect((await samlSignIn(saml)).status).toBe(303);
    expect(await signedInAs(saml)).toBe('sso@demo.test');
    const oidc = new Browser(base);
    expect((await oidcSignIn(oidc)).status).toBe(303);
    expect(await signedInAs(oidc)).toBe('oidc@demo.test');
  });
});
