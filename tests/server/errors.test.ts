import Fastify, { type FastifyInstance, type InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DatabaseBusyError } from '../../server/db/data';
import { installErrorHandler } from '../../server/errors';
import { makeApp } from './helpers';

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp();
});
afterAll(async () => {
  await app.close();
});

async function expectJsonError(opts: InjectOptions, status: number, error?: string) {
  const res = await app.inject(opts);
  expect(res.statusCode, res.body).toBe(status);
  expect(res.headers['content-type']).toMatch(/^application\/json/);
  const body = res.json() as { error: string; message: string };
  expect(typeof body.error).toBe('string');
  expect(typeof body.message).toBe('string');
  expect(res.body).not.toMatch(/at .*\.(ts|js):\d+/); // no stack traces
  if (error) expect(body.error).toBe(error);
  return body;
}

const LOGIN = '/ws/account/login';
const json = { 'content-type': 'application/json' };

describe('bad input never answers 500', () => {
  it('malformed JSON -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, headers: json, payload: '{"email": "a@b.c", ' }, 400, 'MALFORMED_JSON');
  });
  it('empty JSON body -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, headers: json, payload: '' }, 400);
  });
  it('JSON that is not an object -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, headers: json, payload: '[1,2]' }, 400, 'VALIDATION');
    await expectJsonError({ method: 'POST', url: LOGIN, headers: json, payload: 'null' }, 400);
  });
  it('unknown field -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, payload: { email: 'a@b.c', password: 'x', admin: true } }, 400, 'VALIDATION');
  });
  it('wrong type -> 400 (no coercion of bodies)', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, payload: { email: 'a@b.c', password: 'x', staySignedIn: 'true' } }, 400, 'VALIDATION');
    await expectJsonError({ method: 'POST', url: LOGIN, payload: { email: 123, password: 'x' } }, 400, 'VALIDATION');
  });
  it('missing field -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, payload: { email: 'a@b.c' } }, 400, 'VALIDATION');
  });
  it('body over 16 kB -> 413', async () => {
    await expectJsonError(
      { method: 'POST', url: LOGIN, headers: json, payload: JSON.stringify({ email: 'a@b.c', password: 'x'.repeat(17 * 1024) }) },
      413,
      'PAYLOAD_TOO_LARGE',
    );
  });
  it('wrong content type -> 415', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN, headers: { 'content-type': 'text/plain' }, payload: 'email=a' }, 415, 'UNSUPPORTED_MEDIA_TYPE');
    await expectJsonError(
      { method: 'POST', url: LOGIN, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a&password=b' },
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    );
  });
  it('no body at all -> 400', async () => {
    await expectJsonError({ method: 'POST', url: LOGIN }, 400);
  });
  it('unknown /ws/ route and wrong method -> 404 JSON', async () => {
    await expectJsonError({ method: 'GET', url: '/ws/nope' }, 404, 'NOT_FOUND');
    await expectJsonError({ method: 'GET', url: LOGIN, headers: { accept: 'text/html' } }, 404, 'NOT_FOUND');
    await expectJsonError({ method: 'POST', url: '/branding/nothing', payload: {} }, 404, 'NOT_FOUND');
  });
  it('bad query strings -> 400', async () => {
    await expectJsonError({ method: 'GET', url: '/ws/account/logout?sessions=some&x=1' }, 400, 'VALIDATION');
  });
  it('true 500s are logged and answered without details', async () => {
    const local = await makeApp();
    local.get('/ws/boom', async () => {
      throw new Error('secret internals');
    });
    const res = await local.inject({ url: '/ws/boom' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ error: 'INTERNAL', message: 'Internal server error' });
    await local.close();
  });
});

describe('rate limit', () => {
  it('sign-in endpoints answer 429 JSON past the per-IP limit', async () => {
    const limited = await makeApp({ rateLimit: { max: 3, timeWindowMs: 60_000 } });
    try {
      const codes: number[] = [];
      for (let i = 0; i < 4; i++)
        codes.push((await limited.inject({ method: 'POST', url: '/ws/account/authentication-state', payload: { email: 'a@b.c' } })).statusCode);
      expect(codes).toEqual([200, 200, 200, 429]);
      const res = await limited.inject({ method: 'POST', url: '/ws/account/authentication-state', payload: { email: 'a@b.c' } });
      expect(res.json()).toMatchObject({ error: 'RATE_LIMITED' });
      expect((await limited.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await limited.close();
    }
  });
});

describe('a busy database', () => {
  it('answers 503 BUSY with Retry-After when a transaction ran out of tries or lost a deadlock; other faults stay 500', async () => {
    const local = Fastify();
    installErrorHandler(local);
    local.get('/busy', async () => {
      throw new DatabaseBusyError(20, Object.assign(new Error('could not serialize access'), { code: '40001' }));
    });
    local.get('/deadlock', async () => {
      throw Object.assign(new Error('deadlock detected'), { code: '40P01' });
    });
    local.get('/fault', async () => {
      throw new Error('a bug');
    });
    try {
      for (const url of ['/busy', '/deadlock']) {
        const res = await local.inject({ url });
        expect(res.statusCode, url).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.json()).toEqual({ error: 'BUSY', message: 'The server is busy; retry in 1 second' });
      }
      // Control: a real fault is still a 500, without Retry-After.
      const fault = await local.inject({ url: '/fault' });
      expect(fault.statusCode).toBe(500);
      expect(fault.headers['retry-after']).toBeUndefined();
    } finally {
      await local.close();
    }
  });
});
