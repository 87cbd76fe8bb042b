/**
 * The attack of issue 35, finding 6, replayed (docs/security.md, "Issue 35, finding 6"): /metrics
 * told anyone sign-in outcomes by result code, queue depths and latency per route, on a production
 * start included, and no start-up line said so. Now, outside demo mode, it answers only with the
 * METRICS_TOKEN bearer or on METRICS_PORT (a listener of its own, without the Host allow-list, for the
 * cluster network); with neither it is not served and the start says how to serve it. Controls: the
 * operator's scrape with the token answers, the scrape on METRICS_PORT by pod IP answers, and the demo
 * keeps it open, saying so.
 */
import { describe, expect, it } from 'vitest';
import { freePort } from '../../../scripts/free-port';
import { logLines } from '../../../scripts/server-output';
import { makeApp, makeProductionApp, TEST_APP_SECRET } from '../../server/helpers';
import { figure, healthy, listeningAt, reportFigures, startServer } from '../attack-helpers';

const TOKEN = 'issue-35-metrics-token-0123456789';
/** What the page tells (its sign-in outcomes by result code), even before the first sign-in counted. */
const SIGN_INS = /frontdoor_sign_in_total/;

describe('6. /metrics outside demo mode', () => {
  it('neither token nor port: 404 and nothing told; the demo keeps it open (control)', async () => {
    const production = await makeProductionApp();
    const demo = await makeApp();
    try {
      const res = await production.inject({ url: '/metrics' });
      expect(res.statusCode).toBe(404);
      expect(res.body).not.toMatch(SIGN_INS);
      expect(production.fd.config.metrics.mode).toBe('off');
      const open = await demo.inject({ url: '/metrics' });
      expect(open.statusCode).toBe(200);
      expect(open.body).toMatch(SIGN_INS);
      figure(6, 'GET /metrics on a production start without METRICS_TOKEN', '200 (sign-in outcomes, queue depth, latency per route)', `${res.statusCode}`);
    } finally {
      await production.close();
      await demo.close();
    }
  });

  it('METRICS_TOKEN: 401 without it or with another, 200 with it (control); a scrape by pod IP needs ALLOWED_HOSTS', async () => {
    const app = await makeProductionApp({ metrics: { token: TOKEN }, allowedHosts: { names: [], ranges: ['10.0.0.0/8'] } });
    try {
      const anonymous = await app.inject({ url: '/metrics' });
      const wrong = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}x` } });
      const right = await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${TOKEN}` } });
      expect([anonymous.statusCode, wrong.statusCode, right.statusCode]).toEqual([401, 401, 200]);
      expect(anonymous.body).not.toMatch(SIGN_INS);
      expect(right.body).toMatch(SIGN_INS);
      // By pod IP: inside ALLOWED_HOSTS' range it is served; outside it the Host allow-list still refuses.
      const inRange = await app.inject({ url: '/metrics', headers: { host: '10.1.2.3:8080', authorization: `Bearer ${TOKEN}` } });
      const outside = await app.inject({ url: '/metrics', headers: { host: '192.0.2.7:8080', authorization: `Bearer ${TOKEN}` } });
      expect([inRange.statusCode, outside.statusCode]).toEqual([200, 421]);
      figure(6, 'GET /metrics with METRICS_TOKEN set (control): without / with the bearer token', '401 / 200', `${anonymous.statusCode} / ${right.statusCode}`);
      figure(6, 'a scrape by pod IP (Host 10.1.2.3) with ALLOWED_HOSTS=10.0.0.0/8', '421 (names only)', `${inRange.statusCode}`);
    } finally {
      await app.close();
    }
  });

  it('a production start: the start-up line says where /metrics is; with METRICS_PORT it answers there for any Host, not on the main port', async () => {
    const metricsPort = await freePort();
    const proc = startServer({
      NODE_ENV: 'production',
      PORT: '0',
      DB_PATH: ':memory:',
      APP_SECRET: TEST_APP_SECRET,
      PUBLIC_URL: 'https://signin.example.test',
      DELIVERY: 'hold',
      METRICS_PORT: String(metricsPort),
    });
    try {
      const base = await listeningAt(proc);
      expect(base, proc.output()).toBeDefined();
      expect(await healthy(base!, proc)).toBe(true);
      const line = logLines(proc.output()).find((l) => l.msg.startsWith('/metrics: '));
      expect(line?.msg).toBe(`/metrics: served on METRICS_PORT ${metricsPort} only, with /healthz and /readyz; not on the main port`);
      const main = await fetch(`${base}/metrics`);
      expect(main.status).toBe(404);
      // The cluster's scraper comes by pod IP: no Host allow-list on this listener.
      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`, { headers: { host: '10.1.2.3' } });
      expect(scrape.status).toBe(200);
      expect(await scrape.text()).toMatch(SIGN_INS);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/readyz`, { headers: { host: '10.1.2.3' } })).status).toBe(200);
      // Nothing else of the server is on it.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/ws/app-config`)).status).toBe(404);
      figure(6, 'start-up line about /metrics on a production start', 'none', 'one line (where it is served, or how to serve it)');
      figure(6, 'GET /metrics with METRICS_PORT: main port / its own port by pod IP', '200 / (no such listener)', `${main.status} / ${scrape.status}`);
    } finally {
      await proc.stop();
    }
  }, 60_000);
});

reportFigures('issue-35-metrics', 'Issue 35, finding 6 (/metrics), replayed');
