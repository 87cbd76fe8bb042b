import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import {
  helpCenterToken,
  jwtKeyring,
  signJwt,
  verifyJwt,
  HELP_CENTER_TOKEN_TTL_S,
  JWT_LEEWAY_S,
  type JwtKeyring,
  type VerifyJwtOptions,
} from '../../server/services/jwt';
import { expectContract, login, makeApp, makeProductionApp, sessionCookie } from './helpers';

let app: FastifyInstance | undefined;
afterEach(async () => {
  await app?.close();
  app = undefined;
});

const SECRET = 'jwt-secret-of-the-test-0123456789abcdef';
const ACADEMY = 'https://academy.example.test';
/** The demo help centre's secret and origin (makeApp: dev tools on, PUBLIC_URL http://localhost:8080). */
const demoSecret = (a: FastifyInstance) => a.fd.secrets.helpCenterJwt!;
const DEMO_ORIGIN = 'http://localhost:8080';

async function signedIn(email = 'nomfa@demo.test'): Promise<{ app: FastifyInstance; cookie: string }> {
  app = await makeApp({ academyHosts: [ACADEMY] });
  const { res } = await login(app, email);
  const cookie = sessionCookie(res);
  expect(cookie).toBeDefined();
  return { app, cookie: cookie!.split(';')[0]! };
}

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

describe('services/jwt (jose)', () => {
  const NOW = 1_700_000_000_000;
  const US = 'https://signin.example.test';
  const verify = (token: string, keys: JwtKeyring | string = SECRET, more: Partial<VerifyJwtOptions> = {}) => verifyJwt(token, keys, { nowMs: NOW, ...more });
  const header = (token: string) => JSON.parse(Buffer.from(token.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

  it('signs HS256 with a kid and verifies its own tokens: iss, aud, iat, nbf, exp, jti', async () => {
    const token = await helpCenterToken({ email: 'a@b.test', name: 'A B' }, NOW, SECRET, ACADEMY, US);
    expect(header(token)).toEqual({ alg: 'HS256', typ: 'JWT', kid: jwtKeyring(SECRET).signing.kid });
    expect(jwtKeyring(SECRET).signing.kid).not.toContain(SECRET.slice(0, 8));
    const claims = await verify(token, SECRET, { audience: ACADEMY, issuer: US });
    expect(claims).toMatchObject({
      email: 'a@b.test',
      name: 'A B',
      iss: US,
      aud: ACADEMY,
      iat: NOW / 1000,
      nbf: NOW / 1000,
      exp: NOW / 1000 + HELP_CENTER_TOKEN_TTL_S,
    });
    expect(typeof claims?.jti).toBe('string');
  });

  it('refuses tampered, foreign-key, unsigned, wrong-audience, wrong-issuer and malformed tokens', async () => {
    const token = await helpCenterToken({ email: 'a@b.test', name: 'A' }, NOW, SECRET, ACADEMY, US);
    expect(await verify(token, SECRET, { audience: ACADEMY, issuer: US })).not.toBeNull(); // control
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ email: 'evil@b.test', name: 'x', iat: 1, exp: 9e9, jti: 'j' })).toString('base64url')}.${s}`;
    expect(await verify(forged)).toBeNull();
    expect(await verify(await signJwt({ email: 'a@b.test', name: 'x', iat: 1, exp: 9e9, jti: 'j' }, 'other-secret-0123456789abcdef0123'))).toBeNull();
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${token.split('.')[1]}.`;
    expect(await verify(none)).toBeNull();
    expect(await verify(token, SECRET, { audience: 'https://other.example.test' })).toBeNull(); // another site's audience
    expect(await verify(token, SECRET, { issuer: 'https://evil.example.test' })).toBeNull();
    for (const bad of ['not.a.jwt', '', 'a.b.c', 'x'.repeat(9000)]) expect(await verify(bad)).toBeNull();
    const noEmail = await signJwt({ name: 'x', iat: NOW / 1000, exp: NOW / 1000 + 60, jti: 'j' }, SECRET);
    expect(await verify(noEmail)).toBeNull();
    const noExp = await signJwt({ email: 'a@b.test', name: 'x', iat: NOW / 1000, jti: 'j' }, SECRET);
    expect(await verify(noExp)).toBeNull();
  });

  it('honours exp and nbf with a leeway for clock differences', async () => {
    const token = await helpCenterToken({ email: 'a@b.test', name: 'A' }, NOW, SECRET, ACADEMY);
    const at = (ms: number, leewaySeconds?: number) => verifyJwt(token, SECRET, { nowMs: ms, ...(leewaySeconds !== undefined ? { leewaySeconds } : {}) });
    const expiry = NOW + HELP_CENTER_TOKEN_TTL_S * 1000;
    expect(await at(expiry - 1000, 0)).not.toBeNull();
    expect(await at(expiry + 1000, 0)).toBeNull();
    expect(await at(expiry + (JWT_LEEWAY_S - 1) * 1000)).not.toBeNull(); // default leeway
    expect(await at(expiry + (JWT_LEEWAY_S + 1) * 1000)).toBeNull();
    // nbf: a token from a server whose clock runs ahead
    expect(await at(NOW - 10_000, 0)).toBeNull();
    expect(await at(NOW - 10_000, 30)).not.toBeNull();
  });

  it('rotates keys: signs with the current key, verifies with current and previous ones by kid', async () => {
    const OLD = 'the-previous-secret-0123456789abcdef0123';
    const NEW = 'the-current-secret-0123456789abcdef01234';
    const rotated = jwtKeyring(NEW, [OLD]);
    const before = await helpCenterToken({ email: 'a@b.test', name: 'A' }, NOW, jwtKeyring(OLD), ACADEMY);
    const after = await helpCenterToken({ email: 'a@b.test', name: 'A' }, NOW, rotated, ACADEMY);
    expect(header(after).kid).toBe(rotated.signing.kid);
    expect(header(after).kid).not.toBe(header(before).kid);
    expect(await verify(before, rotated)).not.toBeNull(); // issued before the rotation, still valid
    expect(await verify(after, rotated)).not.toBeNull();
    expect(await verify(before, jwtKeyring(NEW))).toBeNull(); // the old key retired
    expect(await verify(after, jwtKeyring(OLD))).toBeNull();
    // Named keys; a kid the verifier does not hold is refused even when the secret would fit.
    const named = jwtKeyring({ kid: '2025-06', secret: NEW }, [{ kid: '2025-01', secret: OLD }]);
    const token = await signJwt({ email: 'a@b.test', name: 'A', iat: NOW / 1000, exp: NOW / 1000 + 60, jti: 'j' }, named);
    expect(header(token).kid).toBe('2025-06');
    expect(await verify(token, named)).not.toBeNull();
    expect(await verify(token, jwtKeyring({ kid: 'other', secret: NEW }))).toBeNull();
  });

  it('accepts a token without kid (issued before kids) when one of the keys signed it', async () => {
    const { SignJWT } = await import('jose');
    const claims = { email: 'a@b.test', name: 'A', iat: NOW / 1000, exp: NOW / 1000 + 60, jti: 'j' };
    const legacy = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(new TextEncoder().encode(SECRET));
    expect(await verify(legacy, jwtKeyring('another-current-secret-0123456789abcdef', [SECRET]))).toMatchObject({ email: 'a@b.test' });
    expect(await verify(legacy, jwtKeyring('another-current-secret-0123456789abcdef'))).toBeNull();
  });
});

describe('GET /ws/helpcenter/sso-token', () => {
  it('answers 401 without a session', async () => {
    app = await makeApp();
    const res = await app.inject({ method: 'GET', url: '/ws/helpcenter/sso-token' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
  });
  it('gives a jwt for the signed-in user', async () => {
    const { app, cookie } = await signedIn();
    const res = await app.inject({ method: 'GET', url: '/ws/helpcenter/sso-token', headers: { cookie } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('no-store');
    const body = res.json() as { jwt: string };
    expectContract('helpCenterSsoToken', body);
    const claims = await verifyJwt(body.jwt, demoSecret(app), { nowMs: Date.now(), audience: DEMO_ORIGIN, issuer: DEMO_ORIGIN });
    expect(claims).toMatchObject({ email: 'nomfa@demo.test', name: 'Nico Nomfa', aud: [DEMO_ORIGIN] });
  });
});

describe('/dev/helpcenter', () => {
  it('accepts the form post and shows who signed in, escaped', async () => {
    const { app, cookie } = await signedIn();
    const { jwt } = (await app.inject({ method: 'GET', url: '/ws/helpcenter/sso-token', headers: { cookie } })).json() as { jwt: string };
    const res = await app.inject({
      method: 'POST',
      url: '/dev/helpcenter/access/jwt?return_to=%2Fhc%2F%3Cb%3E',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ jwt }),
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Help centre — signed in as nomfa@demo.test');
    expect(res.body).toContain('/hc/&lt;b&gt;');
    expect(res.body).not.toContain('<b>');
  });
  it('escapes the email of the token', async () => {
    app = await makeApp();
    const jwt = await helpCenterToken({ email: '<script>x</script>@b.test', name: 'n' }, Date.now(), demoSecret(app), DEMO_ORIGIN, DEMO_ORIGIN);
    const res = await app.inject({
      method: 'POST',
      url: '/dev/helpcenter/access/jwt',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ jwt }),
    });
    expect(res.body).toContain('&lt;script&gt;');
    expect(res.body).not.toContain('<script>x');
  });
  it('refuses a bad token with 401', async () => {
    app = await makeApp();
    const res = await app.inject({
      method: 'POST',
      url: '/dev/helpcenter/access/jwt',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ jwt: 'a.b.c' }),
    });
    expect(res.statusCode).toBe(401);
    expect(res.body).not.toContain('signed in as');
  });
  it('refuses a token made for another site (an academy) with 401', async () => {
    app = await makeApp();
    const jwt = await helpCenterToken({ email: 'a@b.test', name: 'n' }, Date.now(), demoSecret(app), ACADEMY, DEMO_ORIGIN);
    const res = await app.inject({
      method: 'POST',
      url: '/dev/helpcenter/access/jwt',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ jwt }),
    });
    expect(res.statusCode).toBe(401);
  });
  it('does not exist in production', async () => {
    app = await makeProductionApp();
    const res = await app.inject({
      method: 'POST',
      url: '/dev/helpcenter/access/jwt',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: form({ jwt: 'a.b.c' }),
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('GET /ws/app-config help centre', () => {
  it('points both hosts at the demo help centre in development', async () => {
    app = await makeApp();
    const res = await app.inject({ method: 'GET', url: '/ws/app-config', headers: { host: 'localhost:8080' } });
    const body = res.json() as Record<string, unknown>;
    expectContract('appConfig', body);
    expect(body.helpCenter).toEqual({
      host: 'http://localhost:8080/dev/helpcenter',
      governmentHost: 'http://localhost:8080/dev/helpcenter',
      ssoTokenPath: '/ws/helpcenter/sso-token',
    });
  });
  it('has no demo hosts in production', async () => {
    app = await makeProductionApp();
    const body = (await app.inject({ method: 'GET', url: '/ws/app-config' })).json() as { helpCenter: Record<string, unknown> };
    expect(body.helpCenter.host).toBeUndefined();
  });
});

describe('academy, ticket statuses, error-reporting state, session features', () => {
  it('academySsoLink answers a redirect target with a token', async () => {
    const { app, cookie } = await signedIn();
    const res = await app.inject({
      method: 'GET',
      url: `/ws/integrations/academy/sso-link?route=${encodeURIComponent('https://academy.example.test/course/1')}`,
      headers: { cookie },
    });
    expect(res.statusCode).toBe(200);
    const body = res.json() as { url: string };
    expectContract('academySsoLink', body);
    const url = new URL(body.url);
    expect(url.origin + url.pathname).toBe('https://academy.example.test/course/1');
    expect(await verifyJwt(url.searchParams.get('jwt')!, demoSecret(app), { nowMs: Date.now(), audience: ACADEMY, issuer: DEMO_ORIGIN })).toMatchObject({
      email: 'nomfa@demo.test',
      aud: ACADEMY,
      iss: DEMO_ORIGIN,
    });
    const bad = await app.inject({ method: 'GET', url: '/ws/integrations/academy/sso-link?route=javascript:alert(1)', headers: { cookie } });
    expect(bad.statusCode).toBe(400);
    // Any other host gets no token at all.
    const elsewhere = await app.inject({
      method: 'GET',
      url: `/ws/integrations/academy/sso-link?route=${encodeURIComponent('https://evil.example/x')}`,
      headers: { cookie },
    });
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.body).not.toContain('jwt');
    const anon = await app.inject({ method: 'GET', url: '/ws/integrations/academy/sso-link?route=https://a.test/' });
    expect(anon.statusCode).toBe(401);
  });
  it('both ticket status calls answer the list; 401 without a session', async () => {
    const { app, cookie } = await signedIn();
    for (const url of ['/ws/ticketing/statuses', '/ws/ticketing/v2/statuses']) {
      const res = await app.inject({ method: 'GET', url, headers: { cookie } });
      expect(res.statusCode).toBe(200);
      expectContract(url.includes('v2') ? 'ticketStatusesV2' : 'ticketStatuses', res.json());
      expect((res.json() as { statuses: unknown[] }).statuses.length).toBeGreaterThan(0);
      expect((await app.inject({ method: 'GET', url })).statusCode).toBe(401);
    }
  });
  it('error-reporting state for technicians and end users', async () => {
    const { app, cookie } = await signedIn();
    const tech = await app.inject({ method: 'GET', url: '/ws/sentry/state', headers: { cookie } });
    expect(tech.json()).toEqual({ enabled: false });
    expectContract('errorReportingState', tech.json());
    const eus = await app.inject({ method: 'GET', url: '/ws/eus/sentry/state', headers: { cookie } });
    expectContract('errorReportingStateEus', eus.json());
  });
  it('the session gives userSite and the seeded features', async () => {
    const { app, cookie } = await signedIn();
    const body = (await app.inject({ method: 'GET', url: '/ws/account/session', headers: { cookie, host: 'localhost:8080' } })).json() as Record<
      string,
      unknown
    >;
    expectContract('session', body);
    expect(body.userSite).toBe('http://localhost:8080');
    expect(body.features).toEqual(['helpCenter', 'ticketTimers']);
  });
});
