/**
 * What an operator relies on: readiness that follows the database, Prometheus metrics, the start-up
 * check of every variable (one line per problem), and a graceful SIGTERM with a deadline (the real
 * compiled server's SIGTERM, under plain node: tests/build/server-build.test.ts).
 */
import { EventEmitter } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkEnvironment, parseDatabaseUrl } from '../../server/config';
import type { Database } from '../../server/db/data';
import { openSqlite } from '../../server/db/sqlite';
import { installGracefulShutdown } from '../../server/ops/shutdown';
import { Writable } from 'node:stream';
import { logLines } from '../../scripts/server-output';
import { createLogger } from '../../server/ops/log';
import { startServer } from '../security/attack-helpers';
import { makeApp, makeProductionApp, PASSWORD, post, TEST_APP_SECRET } from './helpers';
import { newStore, TEST_ENGINE } from './test-database';

/** The value of a sample line `name{labels} value` of a Prometheus text page (undefined when absent). */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const ok = Object.entries(labels).every(([k, v]) => line.includes(`${k}="${v}"`));
    if (ok) return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}

describe('GET /readyz and /healthz', () => {
  it('/readyz answers 200 while the database answers and 503 when it does not; /healthz stays 200 (liveness)', async () => {
    const data: Database = TEST_ENGINE === 'sqlite' ? openSqlite(':memory:') : (await newStore()).open();
    await data.migrate();
    const app = await makeApp({ data });
    try {
      const ready = await app.inject({ url: '/readyz' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toEqual({ ok: true, database: TEST_ENGINE });
      await data.close(); // the database goes away under the server
      const down = await app.inject({ url: '/readyz' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ error: 'NOT_READY' });
      expect((await app.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await app.close();
    }
  });
});

describe('GET /metrics', () => {
  let app: Awaited<ReturnType<typeof makeApp>>;
  beforeAll(async () => {
    app = await makeApp({ rateLimit: { max: 2, timeWindowMs: 60_000 } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('counts and times requests by route pattern (never the raw URL), counts 429s as limit refusals, reads the outbox at scrape time', async () => {
    await app.inject({ url: '/healthz' });
    await app.inject({ url: '/healthz' });
    await app.inject({ url: '/ws/no-such-thing-4711' });
    // Two wrong passwords answered by the handler, the third refused by the address limit (max 2).
    for (let i = 0; i < 3; i++) await post(app, '/ws/account/login', { email: 'nobody@demo.test', password: 'wrong-password' });
    // A right password from another address: counted as SUCCESS.
    await post(app, '/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD }, { remoteAddress: '198.51.100.9' });
    await app.fd.outbox.send(app.fd.data, { channel: 'email', to: 'tech@demo.test', subject: 'Hi', text: 'x' });

    const res = await app.inject({ url: '/metrics' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = res.body;
    expect(sample(text, 'http_requests_total', { method: 'GET', route: '/healthz', status_code: '200' })).toBe(2);
    expect(sample(text, 'http_request_duration_seconds_count', { route: '/healthz', status_code: '200' })).toBe(2);
    expect(sample(text, 'http_requests_total', { route: '/ws/account/login', status_code: '429' })).toBe(1);
    expect(sample(text, 'frontdoor_limit_refusals_total', { route: '/ws/account/login' })).toBe(1);
    expect(text).not.toContain('no-such-thing-4711');
    expect(sample(text, 'frontdoor_outbox_messages')).toBe(1);
    expect(sample(text, 'frontdoor_database_up')).toBe(1);
    expect(sample(text, 'frontdoor_sign_in_total', { result: 'AUTHENTICATION_FAILURE' })).toBe(2);
    expect(sample(text, 'frontdoor_sign_in_total', { result: 'SUCCESS' })).toBe(1);
    // No transport for either channel here (the demo's outbox only): both held.
    expect(sample(text, 'frontdoor_delivery_held', { channel: 'email' })).toBe(1);
    expect(sample(text, 'frontdoor_delivery_held', { channel: 'sms' })).toBe(1);
    // Process metrics are main.ts's (tests build many apps): off here.
    expect(text).not.toContain('process_cpu_seconds_total');
  });

  it('with METRICS_TOKEN: 401 without or with a wrong bearer token, 200 with the right one', async () => {
    const token = 'metrics-token-0123456789';
    const guarded = await makeProductionApp({ metrics: { token } });
    try {
      expect((await guarded.inject({ url: '/metrics' })).statusCode).toBe(401);
      const wrong = await guarded.inject({ url: '/metrics', headers: { authorization: 'Bearer metrics-token-012345678X' } });
      expect(wrong.statusCode).toBe(401);
      expect(wrong.headers['www-authenticate']).toBe('Bearer');
      const right = await guarded.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      expect(right.statusCode).toBe(200);
      expect(right.body).toContain('frontdoor_database_up 1');
    } finally {
      await guarded.close();
    }
  });
});

describe('request log: ids and probes', () => {
  it('x-request-id: a usable one is kept, logged and returned; anything else gets a new id; probes log at debug', async () => {
    const lines: Array<Record<string, unknown>> = [];
    const stream = new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)) as Record<string, unknown>);
        done();
      },
    });
    const app = await makeApp({ loggerInstance: createLogger('debug', stream) });
    try {
      const kept = await app.inject({ url: '/ws/app-config', headers: { 'x-request-id': 'lb-7f3a.42:1' } });
      expect(kept.headers['x-request-id']).toBe('lb-7f3a.42:1');
      expect(lines.filter((l) => l.reqId === 'lb-7f3a.42:1').map((l) => l.msg)).toEqual(['incoming request', 'request completed']);
      for (const forged of ['a b', 'x'.repeat(129), 'id\n{"level":60}', '']) {
        const res = await app.inject({ url: '/healthz', headers: { 'x-request-id': forged } });
        expect(res.headers['x-request-id'], forged).toMatch(/^[0-9a-f-]{36}$/);
      }
      expect((await app.inject({ url: '/healthz' })).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      // Probes every few seconds: their request lines at debug (20); the rest at info (30).
      const levels = (url: string) => [...new Set(lines.filter((l) => (l.req as { url?: string } | undefined)?.url === url).map((l) => l.level))];
      await app.inject({ url: '/readyz' });
      await app.inject({ url: '/metrics' });
      expect(levels('/healthz')).toEqual([20]);
      expect(levels('/readyz')).toEqual([20]);
      expect(levels('/metrics')).toEqual([20]);
      expect(levels('/ws/app-config')).toEqual([30]);
    } finally {
      await app.close();
    }
  });
});

describe('start-up configuration (server/config.ts checkEnvironment)', () => {
  const production = { NODE_ENV: 'production', APP_SECRET: TEST_APP_SECRET, PUBLIC_URL: 'https://signin.example.test', DELIVERY: 'hold' };

  it('accepts a complete production environment, SQLite by default and PostgreSQL with DATABASE_URL', () => {
    expect(checkEnvironment(production, [])).toMatchObject({ problems: [], settings: { port: 8080, database: { engine: 'sqlite', path: 'data/app.sqlite' } } });
    const pg = checkEnvironment(
      { ...production, DATABASE_URL: 'postgres://fd:s3cret@db.internal:5432/frontdoor?sslmode=require', DATABASE_POOL_SIZE: '20' },
      [],
    );
    expect(pg.problems).toEqual([]);
    expect(pg.settings.database).toEqual({ engine: 'postgres', url: 'postgres://fd:s3cret@db.internal:5432/frontdoor?sslmode=require', poolSize: 20 });
    expect(parseDatabaseUrl('postgresql:///frontdoor?host=/var/run/postgresql')).toBe('postgresql:///frontdoor?host=/var/run/postgresql');
  });

  it('reports every problem at once, one line each, and never repeats a password', () => {
    const { problems } = checkEnvironment(
      {
        NODE_ENV: 'production',
        PORT: '80a',
        DATABASE_URL: 'mysql://root:hunter2@db/frontdoor',
        DB_PATH: 'data/x.sqlite',
        DATABASE_POOL_SIZE: '0',
        LOG_LEVEL: 'loud',
        SHUTDOWN_TIMEOUT_MS: '-5',
        TRUST_PROXY: '*',
        APP_SECRET: 'short',
        METRICS_TOKEN: 'abc',
      },
      [],
    );
    // In the schema's order (server/env/variables.ts), then the rules between variables.
    expect(problems).toEqual([
      expect.stringMatching(/^PORT must be a whole number from 0 to 65535, not "80a"\.$/),
      expect.stringMatching(/^TRUST_PROXY takes the addresses or CIDR ranges/),
      expect.stringMatching(/^LOG_LEVEL must be one of fatal, error, warn, info/),
      expect.stringMatching(/^SHUTDOWN_TIMEOUT_MS must be a whole number/),
      expect.stringMatching(/^APP_SECRET must be at least 32 characters/),
      expect.stringMatching(/^METRICS_TOKEN must be at least 16 characters/),
      expect.stringMatching(/^DATABASE_POOL_SIZE must be a whole number from 1 to 1000/),
      expect.stringMatching(/^DATABASE_URL and DB_PATH are both set/),
      expect.stringMatching(/^DATABASE_URL must start with postgres:\/\/ or postgresql:\/\/ .*"mysql:\/\/root:\*\*\*@db\/frontdoor"/),
      expect.stringMatching(/^PUBLIC_URL is required outside demo mode/),
      expect.stringMatching(/^SMTP_URL \(email\) and SMS_PROVIDER \(texts\) are not configured: .*DELIVERY=hold/),
    ]);
    for (const p of problems) expect(p).not.toMatch(/hunter2|\n/);
    for (const [url, reason] of [
      ['not a url', /must be a PostgreSQL URL/],
      ['postgres://db.internal', /names no database/],
      ['postgres:///frontdoor', /names no host/],
    ] as const) {
      expect(checkEnvironment({ ...production, DATABASE_URL: url }, []).problems, url).toEqual([expect.stringMatching(reason)]);
    }
  });

  it('a real start with several mistakes logs each as one JSON line (variable and reason), exits 2, no stack trace', async () => {
    const proc = startServer({ NODE_ENV: 'production', PORT: '0', DATABASE_URL: 'postgres://u:pw@db.internal:5432', LOG_LEVEL: 'chatty' });
    expect(await proc.exited).toBe(2);
    const lines = proc.output().trim().split('\n');
    expect(logLines(proc.output())).toHaveLength(lines.length);
    expect(logLines(proc.output()).map(({ level, variable, msg }) => ({ level, variable, msg }))).toEqual([
      { level: 60, variable: 'LOG_LEVEL', msg: expect.stringMatching(/^LOG_LEVEL must be one of/) },
      { level: 60, variable: 'DATABASE_URL', msg: expect.stringMatching(/^DATABASE_URL names no database .*u:\*\*\*@db\.internal/) },
      { level: 60, variable: 'APP_SECRET', msg: expect.stringMatching(/^APP_SECRET is required outside demo mode/) },
      { level: 60, variable: 'PUBLIC_URL', msg: expect.stringMatching(/^PUBLIC_URL is required outside demo mode/) },
      { level: 60, variable: 'SMTP_URL', msg: expect.stringMatching(/^SMTP_URL \(email\) and SMS_PROVIDER \(texts\) are not configured/) },
    ]);
    expect(proc.output()).not.toContain(':pw@');
  }, 60_000);
});

describe('graceful shutdown (SIGTERM)', () => {
  async function slowServer(delayMs: number, timeoutMs: number) {
    const app = Fastify();
    app.get('/slow', async () => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      return { done: true };
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    const signals = new EventEmitter();
    const exits: number[] = [];
    let exited!: (code: number) => void;
    const exitPromise = new Promise<number>((resolve) => (exited = resolve));
    const lines: string[] = [];
    installGracefulShutdown(app, {
      timeoutMs,
      signals,
      exit: (code) => {
        exits.push(code);
        exited(code);
      },
      log: (line) => lines.push(line),
    });
    const port = (app.server.address() as AddressInfo).port;
    return { app, signals, exits, exitPromise, lines, port };
  }

  function get(port: number, path: string): Promise<{ status: number; body: string }> {
    return new Promise((resolve, reject) => {
      http
        .get({ host: '127.0.0.1', port, path, agent: false }, (res) => {
          let body = '';
          res.on('data', (d) => (body += String(d)));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        })
        .on('error', reject);
    });
  }

  it('finishes the request in flight, refuses new connections, then exits 0', async () => {
    const s = await slowServer(400, 5000);
    const inFlight = get(s.port, '/slow');
    await new Promise((resolve) => setTimeout(resolve, 100));
    s.signals.emit('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 50));
    await expect(get(s.port, '/slow')).rejects.toThrow(/ECONNREFUSED/);
    expect(await inFlight).toEqual({ status: 200, body: '{"done":true}' });
    expect(await s.exitPromise).toBe(0);
    expect(s.lines[0]).toMatch(/SIGTERM: closing/);
  });

  it('exits 1 when the deadline passes with a request still in flight', async () => {
    const s = await slowServer(3000, 200);
    const inFlight = get(s.port, '/slow').catch(() => undefined);
    await new Promise((resolve) => setTimeout(resolve, 100));
    const started = Date.now();
    s.signals.emit('SIGTERM');
    expect(await s.exitPromise).toBe(1);
    expect(Date.now() - started).toBeLessThan(2500);
    expect(s.lines.at(-1)).toMatch(/deadline of 200 ms passed/);
    s.app.server.closeAllConnections();
    await inFlight;
  });
});
