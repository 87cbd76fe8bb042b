import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { helpCenterToken, signJwt, verifyJwt, HELP_CENTER_TOKEN_TTL_S } from '../../server/services/jwt';
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

describe('services/jwt', () => {
  it('signs HS256 and verifies its own tokens', () => {
    const token = helpCenterToken({ email: 'a@b.test', name: 'A B' }, 1_700_000_000_000, SECRET, ACADEMY);
    const [header] = token.split('.');
    expect(JSON.parse(Buffer.from(header!, 'base64url').toString())).toEqual({ alg: 'HS256', typ: 'JWT' });
    const claims = verifyJwt(token, 1_700_000_000_000, SECRET, ACADEMY);
    expect(claims).toMatchObject({ email: 'a@b.test', name: 'A B', aud: ACADEMY, iat: 1_700_000_000, exp: 1_700_000_000 + HELP_CENTER_TOKEN_TTL_S });
    expect(typeof claims?.jti).toBe('string');
  });
  it('refuses tampered, foreign, expired and malformed tokens', () => {
    const now = 1_700_000_000_000;
    const token = helpCenterToken({ email: 'a@b.test', name: 'A' }, now, SECRET, ACADEMY);
    const [h, , s] = token.split('.');
    const forged = `${h}.${Buffer.from(JSON.stringify({ email: 'evil@b.test', iat: 1, exp: 9e9 })).toString('base64url')}.${s}`;
    expect(verifyJwt(forged, now, SECRET)).toBeNull();
    expect(verifyJwt(signJwt({ email: 'a@b.test', iat: 1, exp: 9e9 }, 'other-secret'), now, SECRET)).toBeNull();
    expect(verifyJwt(token, now + (HELP_CENTER_TOKEN_TTL_S + 1) * 1000, SECRET)).toBeNull();
    expect(verifyJwt(token, now, SECRET, 'https://other.example.test')).toBeNull(); // another site's audience
    expect(verifyJwt('not.a.jwt', now, SECRET)).toBeNull();
    expect(verifyJwt('', now, SECRET)).toBeNull();
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
    const claims = verifyJwt(body.jwt, Date.now(), demoSecret(app), DEMO_ORIGIN);
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
    const jwt = helpCenterToken({ email: '<script>x</script>@b.test', name: 'n' }, Date.now(), demoSecret(app), DEMO_ORIGIN);
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
    const jwt = helpCenterToken({ email: 'a@b.test', name: 'n' }, Date.now(), demoSecret(app), ACADEMY);
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
    expect(verifyJwt(url.searchParams.get('jwt')!, Date.now(), demoSecret(app), ACADEMY)).toMatchObject({ email: 'nomfa@demo.test', aud: ACADEMY });
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
