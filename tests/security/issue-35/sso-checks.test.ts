/**
 * The attack of issue 35, finding 8 (its single sign-on parts), replayed against the real server:
 * an OpenID provider double on loopback (discovery, JWKS, token endpoint: ID tokens with or without
 * email_verified, signed by its key or by another) and the demo SAML IdP and demo IdP of the dev
 * tools. Each refusal has its control: a verified OIDC sign-in, a waived connection, a SAML sign-in,
 * the owner's own round trip. Also: every kind of sign-in answers an expired trial, a moved, disabled,
 * suspended, inactive or IP-blocked account as the password sign-in does.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setEmailVerifiedRule, addConnection, assignConnection, type Sealer } from '../../../server/sso/connections';
import { SSO_COOKIE } from '../../../server/sso/browser';
import { demoIdpKeys, demoIdpMetadata } from '../../../server/sso/demoSamlIdp';
import { newSigningKeyPair } from '../../../server/sso/keys';
import { parseIdpMetadata } from '../../../server/sso/metadata';
import { makeApp, PASSWORD } from '../../server/helpers';
import { body, client, figure, reportFigures, totp, type Client } from '../attack-helpers';

/** What the provider double puts in its next ID token. */
interface NextToken {
  email: string;
  nonce: string;
  /** email_verified: a value, or absent. */
  verified?: boolean;
  /** Signed by another key than the one its JWKS publishes (same kid). */
  forged?: boolean;
}

interface Provider {
  issuer: string;
  next?: NextToken;
  close(): Promise<void>;
}

async function providerDouble(): Promise<Provider> {
  const own = await generateKeyPair('RS256');
  const other = await generateKeyPair('RS256');
  const jwk: JWK = { ...(await exportJWK(own.publicKey)), kid: 'k1', alg: 'RS256', use: 'sig' };
  const provider: Provider = { issuer: '', close: async () => undefined };
  const idToken = async (next: NextToken, key: CryptoKey) =>
    new SignJWT({ email: next.email, nonce: next.nonce, ...(next.verified === undefined ? {} : { email_verified: next.verified }) })
      .setProtectedHeader({ alg: 'RS256', kid: 'k1' })
      .setIssuer(provider.issuer)
      .setAudience('acme-client')
      .setSubject(`sub-${next.email}`)
      .setIssuedAt()
      .setExpirationTime('5m')
      .sign(key);
  const server = http.createServer((req, res) => {
    const json = (value: unknown) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(value));
    };
    req.resume();
    req.on('end', () => {
      if (req.url === '/.well-known/openid-configuration')
        return json({
          issuer: provider.issuer,
          authorization_endpoint: `${provider.issuer}/authorize`,
          token_endpoint: `${provider.issuer}/token`,
          jwks_uri: `${provider.issuer}/jwks`,
          response_types_supported: ['code'],
          subject_types_supported: ['public'],
          id_token_signing_alg_values_supported: ['RS256'],
        });
      if (req.url === '/jwks') return json({ keys: [jwk] });
      if (req.url === '/token' && provider.next) {
        const next = provider.next;
        void idToken(next, next.forged ? other.privateKey : own.privateKey).then((id_token) =>
          json({ access_token: 'access', token_type: 'Bearer', expires_in: 300, id_token }),
        );
        return;
      }
      res.statusCode = 404;
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  provider.issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  provider.close = () => new Promise((resolve) => server.close(() => resolve()));
  return provider;
}

let app: FastifyInstance;
let provider: Provider;
let sealer: Sealer;
/** Connections: OIDC requiring email_verified (the default), OIDC waiving it, SAML to the demo IdP. */
const ids = { oidc: 0, waived: 0, saml: 0 };

beforeAll(async () => {
  app = await makeApp({ rateLimit: false });
  provider = await providerDouble();
  sealer = { seal: app.fd.seal, unseal: app.fd.unseal };
  const now = Date.now();
  const oidc = (name: string) =>
    addConnection(
      app.fd.data,
      { protocol: 'oidc', organizationId: 1, name, settings: { issuer: provider.issuer, clientId: 'acme-client' }, secrets: { clientSecret: 'acme-secret' } },
      sealer,
      now,
    );
  ids.oidc = await oidc('Acme OIDC');
  ids.waived = await oidc('Acme OIDC without email_verified');
  await app.fd.data.tx((t) => setEmailVerifiedRule(t, ids.waived, 'waived', now));
  const idp = parseIdpMetadata(demoIdpMetadata('http://localhost:8080', (await demoIdpKeys(app.fd.data, now)).cert));
  const sp = await newSigningKeyPair('Acme SP');
  ids.saml = await addConnection(
    app.fd.data,
    {
      protocol: 'saml',
      organizationId: 1,
      name: 'Acme SAML',
      settings: { idpEntityId: idp.entityId, idpSsoUrl: idp.ssoUrl, idpCerts: idp.certs, spCert: sp.cert },
      secrets: { spPrivateKey: sp.privateKey },
    },
    sealer,
    now,
  );
});
afterAll(async () => {
  await app?.close();
  await provider?.close();
});

const assign = (connection: number, email: string) => app.fd.data.tx((t) => assignConnection(t, connection, { email }, Date.now()));
const signedIn = async (browser: Client) => (await browser.get('/ws/account/session')).statusCode === 200;

/** saml-init, then the provider's answer to our callback (the browser's round trip, as the IdP would end it). */
async function oidcSignIn(browser: Client, email: string, token: Omit<NextToken, 'email' | 'nonce'> = { verified: true }) {
  const started = body(await browser.post('/ws/account/saml-init', { email }));
  const url = new URL(String(started.url));
  expect(url.origin).toBe(provider.issuer);
  provider.next = { email, nonce: url.searchParams.get('nonce') ?? '', ...token };
  const connection = /^\/sso\/oidc\/(\d+)\//.exec(String(new URL(url.searchParams.get('redirect_uri') ?? '').pathname))?.[1];
  return browser.get(`/sso/oidc/${connection}/callback?code=the-code&state=${url.searchParams.get('state')}`);
}

/** saml-init, the demo SAML IdP's two pages, then its form posted to our assertion consumer. */
async function samlSignIn(browser: Client, email: string) {
  const started = body(await browser.post('/ws/account/saml-init', { email }));
  const idpPage = (await browser.get(new URL(String(started.url)).pathname + new URL(String(started.url)).search)).body;
  const field = (html: string, name: string) =>
    new RegExp(`name="${name}" value="([^"]*)"`)
      .exec(html)?.[1]
      ?.replace(/&amp;/g, '&')
      .replace(/&quot;/g, '"') ?? '';
  const form = (fields: Record<string, string>) => ({
    payload: new URLSearchParams(fields).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const posted = (await browser.send({ method: 'POST', url: '/dev/saml-idp/sso', ...form({ request: field(idpPage, 'request'), email }) })).body;
  const acs = /<form method="post" action="([^"]+)"/.exec(posted)?.[1] ?? '';
  return browser.send({
    method: 'POST',
    url: new URL(acs).pathname,
    ...form({ SAMLResponse: field(posted, 'SAMLResponse'), RelayState: field(posted, 'RelayState') }),
  });
}

describe('8. OpenID Connect: email_verified and the ID token signature', () => {
  it('an email the provider does not mark verified is refused; a verified one signs in; a waived connection takes it', async () => {
    await assign(ids.oidc, 'nomfa@demo.test');
    const missing = client(app);
    const refused = await oidcSignIn(missing, 'nomfa@demo.test', {});
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('The identity provider has not verified your email address.');
    expect(await signedIn(missing)).toBe(false);
    const unverified = client(app);
    expect((await oidcSignIn(unverified, 'nomfa@demo.test', { verified: false })).statusCode).toBe(400);
    expect(await signedIn(unverified)).toBe(false);
    figure(8, 'OIDC sign-in with email_verified missing', 'SUCCESS (a session)', `${refused.statusCode}, no session`);
    // Control: verified, it signs in.
    const owner = client(app);
    const ok = await oidcSignIn(owner, 'nomfa@demo.test');
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe('/app/');
    expect(await signedIn(owner)).toBe(true);
    // A connection that waives the claim (sso-set-oidc --email-verified waived) takes the unmarked email.
    await assign(ids.waived, 'user@demo.test');
    const waived = client(app);
    expect((await oidcSignIn(waived, 'user@demo.test', {})).headers.location).toBe('/eus/');
    expect(await signedIn(waived)).toBe(true);
    figure(8, 'OIDC sign-in with email_verified missing, the connection waiving it', 'SUCCESS', 'SUCCESS');
  });

  it("an ID token signed by another key than the issuer's is refused; the right key signs in", async () => {
    await assign(ids.oidc, 'nomfa@demo.test');
    const attacker = client(app);
    const forged = await oidcSignIn(attacker, 'nomfa@demo.test', { verified: true, forged: true });
    expect(forged.statusCode).toBe(400);
    expect(forged.body).toContain('answer could not be confirmed');
    expect(await signedIn(attacker)).toBe(false);
    figure(
      8,
      "OIDC ID token signed by a key not in the issuer's JWKS",
      'accepted (openid-client 6 does not check by default)',
      `${forged.statusCode}, no session`,
    );
    const owner = client(app);
    expect((await oidcSignIn(owner, 'nomfa@demo.test')).statusCode).toBe(303);
    expect(await signedIn(owner)).toBe(true);
  });
});

describe('8. the SSO round trip cookie', () => {
  it('is __Host-fd_sso; a planted fd_sso (a sibling subdomain can set one) binds nothing', async () => {
    await assign(ids.oidc, 'nomfa@demo.test');
    // The attacker starts a round trip for their own account and plants its nonce in the victim's browser.
    const attacker = client(app);
    const started = await attacker.post('/ws/account/saml-init', { email: 'nomfa@demo.test' });
    const setCookie = [started.headers['set-cookie']].flat().find((c) => String(c).startsWith(`${SSO_COOKIE}=`)) ?? '';
    expect(setCookie).toMatch(/^__Host-fd_sso=[\w-]{32}; Max-Age=\d+; Path=\/; HttpOnly; Secure; SameSite=None$/);
    const url = new URL(String(body(started).url));
    provider.next = { email: 'nomfa@demo.test', nonce: url.searchParams.get('nonce') ?? '', verified: true };
    const victim = client(app);
    victim.cookies.set('fd_sso', attacker.cookies.get(SSO_COOKIE) ?? '');
    const callback = `/sso/oidc/${ids.oidc}/callback?code=the-code&state=${url.searchParams.get('state')}`;
    const planted = await victim.get(callback);
    expect(planted.statusCode).toBe(400);
    expect(planted.body).toContain('This sign-in was started in another browser.');
    expect(await signedIn(victim)).toBe(false);
    figure(8, "victim's browser with a planted fd_sso completing the attacker's round trip", 'signed in as the attacker', `${planted.statusCode}, no session`);
    figure(8, 'the SSO round trip cookie', 'fd_sso (SameSite=None, no prefix)', '__Host-fd_sso (Secure, Path=/, no Domain)');
  });
});

describe('8. one account-state check for every kind of sign-in', () => {
  const STATES = ['expired@demo.test', 'moved@demo.test', 'disabled@demo.test', 'suspended@demo.test', 'inactive@demo.test', 'blocked-ip@demo.test'];

  it('OIDC answers each state as the password sign-in does, and starts no session', async () => {
    const answers: string[] = [];
    for (const email of STATES) {
      const password = body(await client(app).post('/ws/account/login', { email, password: PASSWORD }));
      await assign(ids.oidc, email);
      const browser = client(app);
      const sso = await oidcSignIn(browser, email);
      expect(await signedIn(browser), email).toBe(false);
      switch (password.resultCode) {
        case 'TRIAL_EXPIRED': {
          expect(sso.statusCode).toBe(303);
          expect(sso.headers.location).toBe('/trialExpired');
          expect(browser.cookies.get('expiredTrialSessionKey')).toMatch(/^[\w-]{43}$/);
          // The key is a real one: the expired-trial page's request goes through with it.
          expect(body(await browser.post('/expired-account/extension', undefined))).toEqual({ resultCode: 'SUCCESS' });
          break;
        }
        case 'ACCOUNT_MOVED':
          expect(sso.statusCode).toBe(200);
          expect(sso.body).toContain(`<meta http-equiv="refresh" content="5;url=${String(password.url)}">`);
          expect(sso.body).toContain(`<a href="${String(password.url)}">Login</a>`);
          break;
        default:
          expect(sso.statusCode, email).toBe(403);
      }
      answers.push(`${email.split('@')[0]}: ${password.resultCode}`);
    }
    expect(answers).toEqual([
      'expired: TRIAL_EXPIRED',
      'moved: ACCOUNT_MOVED',
      'disabled: APP_USER_NOT_ENABLED',
      'suspended: ACCOUNT_SUSPENDED',
      'inactive: ACCOUNT_NOT_ACTIVATED',
      'blocked-ip: IP_ADDRESS_NOT_ALLOWED',
    ]);
    const disabled = client(app);
    expect((await oidcSignIn(disabled, 'disabled@demo.test')).body).toContain('Your user account has been disabled. Please contact your system administrator.');
    figure(
      8,
      'OIDC sign-in of an expired-trial / moved account',
      'SUCCESS (a session) / SUCCESS (a session)',
      'TRIAL_EXPIRED (/trialExpired) / ACCOUNT_MOVED (its new address), as by password',
    );
  });

  it('SAML and the demo IdP too; a second factor or a recovery code finishing after the trial ended starts no session', async () => {
    const expire = (email: string) => app.fd.data.run('UPDATE users SET trial_expires_at = ? WHERE email = ?', [Date.now() - 1000, email]);
    // SAML (the demo SAML IdP): control first, then the same account with its trial over.
    await assign(ids.saml, 'user@demo.test');
    const samlOwner = client(app);
    expect((await samlSignIn(samlOwner, 'user@demo.test')).headers.location).toBe('/eus/');
    await expire('user@demo.test');
    const saml = client(app);
    expect((await samlSignIn(saml, 'user@demo.test')).headers.location).toBe('/trialExpired');
    expect(await signedIn(saml)).toBe(false);
    // The demo IdP (/dev/idp) serves SSO users without a connection: sso@demo.test's is taken away.
    await app.fd.data.run("UPDATE users SET sso_connection_id = NULL WHERE email = 'sso@demo.test'");
    await expire('sso@demo.test');
    const demo = client(app);
    const request =
      new URL(String(body(await demo.post('/ws/account/saml-init', { email: 'sso@demo.test' })).url), 'http://localhost').searchParams.get('request') ?? '';
    const idp = await demo.send({
      method: 'POST',
      url: '/dev/idp',
      payload: new URLSearchParams({ request }).toString(),
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(idp.headers.location).toBe('/trialExpired');
    expect(await signedIn(demo)).toBe(false);
    // A TOTP code after the password, the trial ending in between.
    const totpBrowser = client(app);
    const mfa = body(await totpBrowser.post('/ws/account/login', { email: 'tech@demo.test', password: PASSWORD }));
    expect(mfa.resultCode).toBe('MFA_REQUIRED');
    await expire('tech@demo.test');
    const totpAnswer = body(await totpBrowser.post('/ws/account/mfa-login', { loginToken: mfa.loginToken, code: await totp(Date.now()) }));
    expect(totpAnswer.resultCode).toBe('TRIAL_EXPIRED');
    expect(await signedIn(totpBrowser)).toBe(false);
    figure(
      8,
      'expired-trial account signing in by SAML / the demo IdP / a second factor after the trial ended',
      'SUCCESS / SUCCESS / SUCCESS',
      'TRIAL_EXPIRED / TRIAL_EXPIRED / TRIAL_EXPIRED, no session',
    );
  });

  it('a recovery code finishing after the trial ended starts no session; before, it signs in (control)', async () => {
    const setUp = client(app);
    const setup = body(await setUp.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD }));
    const { key } = body(await setUp.post('/ws/account/config-totp', { userToken: setup.userToken }));
    const now = Date.now();
    expect(
      body(
        await setUp.post('/ws/account/login/totp', {
          key,
          userToken: setup.userToken,
          code: await totp(now - 30_000, String(key)),
          secondaryCode: await totp(now, String(key)),
        }),
      ).resultCode,
    ).toBe('SUCCESS');
    const codes = body(await setUp.post('/ws/account/recovery-codes', {})).codes as string[];
    const recover = async (before?: () => Promise<unknown>) => {
      const browser = client(app);
      const token = body(await browser.post('/ws/account/login', { email: 'setup@demo.test', password: PASSWORD })).loginToken;
      await before?.();
      const answer = body(await browser.post('/ws/account/mfa-login/recovery-code', { loginToken: token, recoveryCode: codes.pop() }));
      return { answer, session: await signedIn(browser) };
    };
    expect(await recover()).toMatchObject({ answer: { resultCode: 'SUCCESS' }, session: true });
    const ended = await recover(() => app.fd.data.run("UPDATE users SET trial_expires_at = ? WHERE email = 'setup@demo.test'", [Date.now() - 1000]));
    expect(ended).toMatchObject({ answer: { resultCode: 'TRIAL_EXPIRED' }, session: false });
    figure(8, 'recovery code of an account whose trial ended after its password', 'SUCCESS (a session)', `${String(ended.answer.resultCode)}, no session`);
  });
});

reportFigures('3-issue-35-sso-checks', 'The attack of issue 35, finding 8: single sign-on and the account state');
