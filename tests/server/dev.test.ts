import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { count, login, makeApp, makeProductionApp, post, row } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

const outbox = async (query = '') => (await app.inject({ url: `/dev/outbox${query}` })).json() as Record<string, unknown>[];

describe('/dev tools', () => {
  it('GET /healthz', async () => {
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true });
  });

  it('outbox: newest first, exact fields, ?to= filter', async () => {
    await app.fd.outbox.send(app.fd.data, { channel: 'email', to: 'tech@demo.test', subject: 'Hello', text: 'Body <b>', link: 'http://localhost/x?a=1&b=2' });
    await login(app, 'sms@demo.test');
    const all = await outbox();
    expect(all).toHaveLength(2);
    expect(all[0]).toMatchObject({ channel: 'sms', to: '+14155550123' });
    expect(Object.keys(all[0]!).sort()).toEqual(['channel', 'code', 'createdAt', 'text', 'to']);
    expect(all[1]).toEqual({
      channel: 'email',
      to: 'tech@demo.test',
      subject: 'Hello',
      text: 'Body <b>',
      link: 'http://localhost/x?a=1&b=2',
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(await outbox('?to=tech%40demo.test')).toHaveLength(1);
    expect(await outbox('?to=%2B14155550123')).toHaveLength(1);
    expect(await outbox('?to=+14155550123')).toHaveLength(1);
    expect(await outbox('?to=TECH@demo.test')).toHaveLength(1);
    expect(await outbox('?to=4155550123')).toEqual([]);
    expect(await outbox('?to=nobody%40demo.test')).toEqual([]);
  });

  it('outbox.html escapes', async () => {
    const res = await app.inject({ url: '/dev/outbox.html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('Body &lt;b&gt;');
    expect(res.body).not.toContain('Body <b>');
  });

  it('POST /dev/reset restores the tenant and empties the outbox', async () => {
    await app.fd.data.run("UPDATE users SET state = 'disabled' WHERE email = 'nomfa@demo.test'");
    await app.fd.data.run("DELETE FROM users WHERE email = 'user@demo.test'");
    for (let i = 0; i < 3; i++) await login(app, 'tech@demo.test', 'bad');
    expect((await login(app, 'nomfa@demo.test')).body.resultCode).toBe('APP_USER_NOT_ENABLED');
    const res = await post(app, '/dev/reset', undefined);
    expect(res.statusCode).toBe(200);
    expect(await outbox()).toEqual([]);
    expect((await login(app, 'nomfa@demo.test')).body.resultCode).toBe('SUCCESS');
    expect((await login(app, 'user@demo.test')).body.resultCode).toBe('SUCCESS');
    expect((await login(app, 'tech@demo.test')).body.resultCode).toBe('MFA_REQUIRED');
    const counts = await row(
      app,
      `SELECT (SELECT count(*) FROM users) AS users, (SELECT count(*) FROM trial_links) AS links,
      (SELECT count(*) FROM invitations) AS invitations, (SELECT count(*) FROM division_activations) AS divisions,
      (SELECT count(*) FROM mfa_enrolments) AS mfa`,
    );
    expect(counts).toEqual({ users: 23, links: 4, invitations: 3, divisions: 2, mfa: 6 });
  });

  it('seeds distinct salts for the same password', async () => {
    const hashes = (await app.fd.data.all<{ password_hash: string }>('SELECT password_hash FROM users WHERE password_hash IS NOT NULL')).map(
      (r) => r.password_hash,
    );
    expect(hashes.length).toBe(22);
    expect(new Set(hashes.map((h) => h.split('$')[4])).size).toBe(22);
    expect(hashes.every((h) => h.startsWith('$argon2id$v=19$'))).toBe(true);
  });

  it('production: no /dev routes and no demo seed', async () => {
    const prod = await makeProductionApp();
    try {
      for (const url of ['/dev/outbox', '/dev/outbox.html', '/dev/idp?request=x']) {
        const res = await prod.inject({ url, headers: { accept: 'text/html' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
      }
      expect((await prod.inject({ method: 'POST', url: '/dev/reset' })).statusCode).toBe(404);
      expect(await count(prod, 'SELECT count(*) AS n FROM users')).toBe(0);
      expect((await login(prod, 'nomfa@demo.test')).body).toEqual({ resultCode: 'AUTHENTICATION_FAILURE' });
    } finally {
      await prod.close();
    }
  });
});
