import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cookieValue, expectContract, login, makeApp, sessionCookie } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

const session = (cookie?: string) => app.inject({ url: '/ws/account/session', ...(cookie ? { cookies: { fd_session: cookie } } : {}) });

describe('sessions', () => {
  it('a browser-session cookie: HttpOnly, SameSite=Lax, Path=/, no Max-Age, not Secure over http', async () => {
    const { res } = await login(app, 'nomfa@demo.test');
    const c = sessionCookie(res)!;
    expect(c).toMatch(/HttpOnly/);
    expect(c).toMatch(/SameSite=Lax/);
    expect(c).toMatch(/Path=\//);
    expect(c).not.toMatch(/Max-Age/);
    expect(c).not.toMatch(/Expires/);
    expect(c).not.toMatch(/Secure/);
    expect(cookieValue(c)).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // only the hash is stored
    const rows = await app.fd.data.all<{ token_hash: string }>('SELECT token_hash FROM sessions');
    expect(rows.some((r) => r.token_hash === cookieValue(c))).toBe(false);
  });

  it('staySignedIn gives Max-Age 30 days', async () => {
    const { res } = await login(app, 'nomfa@demo.test', undefined, { staySignedIn: true });
    expect(sessionCookie(res)).toMatch(/Max-Age=2592000/);
  });

  it('__Host-fd_session, Secure, when the request is https (behind a trusted proxy)', async () => {
    const proxied = await makeApp({ trustProxy: ['127.0.0.1'] });
    try {
      const https = { 'x-forwarded-proto': 'https' };
      const res = await proxied.inject({
        method: 'POST',
        url: '/ws/account/login',
        headers: https,
        payload: { email: 'nomfa@demo.test', password: 'Demo-Passw0rd!' },
      });
      const c = sessionCookie(res)!;
      expect(c).toMatch(/^__Host-fd_session=/);
      expect(c).toMatch(/Secure/);
      expect(c).toMatch(/Path=\//);
      expect(c).not.toMatch(/Domain=/);
      const ok = await proxied.inject({ url: '/ws/account/session', headers: https, cookies: { '__Host-fd_session': cookieValue(c) } });
      expect(ok.statusCode).toBe(200);
      // The unprefixed name is not read on https (a sibling subdomain could have planted it).
      expect((await proxied.inject({ url: '/ws/account/session', headers: https, cookies: { fd_session: cookieValue(c) } })).statusCode).toBe(401);
    } finally {
      await proxied.close();
    }
  });

  it('session: 401 without a cookie, 200 with the user', async () => {
    const anon = await session();
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toMatchObject({ error: 'UNAUTHENTICATED' });
    expect((await session('bogus')).statusCode).toBe(401);

    const { res } = await login(app, 'user@demo.test');
    const ok = await session(cookieValue(sessionCookie(res)!));
    expect(ok.statusCode).toBe(200);
    const body = ok.json() as Record<string, unknown>;
    expectContract('session', body);
    expect(body).toMatchObject({ userType: 'END_USER', userSite: 'http://localhost:8080' });
    expect(Array.isArray(body.features)).toBe(true);
    expect(body.user).toMatchObject({ email: 'user@demo.test', entityType: 'END_USER', sysadmin: false, firstName: 'Uma', lastName: 'User', clientId: 101 });
  });

  it('logout ends this session and clears the cookie; ?sessions=all ends every session of the user', async () => {
    const a = cookieValue(sessionCookie((await login(app, 'nomfa@demo.test')).res)!);
    const b = cookieValue(sessionCookie((await login(app, 'nomfa@demo.test')).res)!);
    const c = cookieValue(sessionCookie((await login(app, 'nomfa@demo.test')).res)!);
    const out = await app.inject({ url: '/ws/account/logout', cookies: { fd_session: a } });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ ok: true });
    const cleared = sessionCookie(out)!;
    expect(cleared).toMatch(/^fd_session=;/);
    expect(cleared).toMatch(/Expires=Thu, 01 Jan 1970|Max-Age=0/);
    expect((await session(a)).statusCode).toBe(401);
    expect((await session(b)).statusCode).toBe(200);

    const all = await app.inject({ url: '/ws/account/logout?sessions=all', cookies: { fd_session: b } });
    // It also tells this browser which credentials still sign the account in: none here (issue 37).
    expect(all.json()).toMatchObject({ ok: true, passkeySignals: { rpId: 'localhost', allAcceptedCredentialIds: [] } });
    expect((await session(b)).statusCode).toBe(401);
    expect((await session(c)).statusCode).toBe(401);
  });

  it('logout without a session still answers 200', async () => {
    const res = await app.inject({ url: '/ws/account/logout' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
    expect((await app.inject({ url: '/ws/account/logout?sessions=bogus' })).statusCode).toBe(400);
  });
});
