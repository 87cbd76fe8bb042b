/**
 * The attack of issue 35, finding 7 (any unknown page path costs a full page build), replayed against
 * the real server and the real build (dist/app): 200 fresh unknown paths, the pages built for them and
 * the CPU each took; the best compression done off the request path; the per-address page limit
 * shared by two instances on one database. And finding 8's page part: the page that gives the browser
 * its fd_bind nonce is private. The controls: a known page is still served, cached and revalidated;
 * another address and the sign-in are untouched by one address's page limit.
 */
import { brotliCompressSync, brotliDecompressSync, constants } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../../../server/services/limits';
import { makeApp, PASSWORD, TEST_APP_SECRET } from '../../server/helpers';
import { newStore } from '../../server/test-database';
import { body, client, figure, reportFigures } from '../attack-helpers';

const PAGE = { accept: 'text/html,application/xhtml+xml', 'accept-encoding': 'br, gzip', 'accept-language': 'en-US' };
const FRESH = 200;

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp({ rateLimit: false });
});
afterAll(async () => {
  await app?.close();
});

const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { ...PAGE, ...headers } });

describe('7. any unknown page path costs a full page build', () => {
  it(`${FRESH} fresh unknown paths: one page built, one kept, the same page for each`, async () => {
    expect((await page('/login')).statusCode).toBe(200);
    const before = app.pageCache.stats();
    const etags = new Set<string>();
    const cpu = process.cpuUsage();
    const started = performance.now();
    for (let i = 0; i < FRESH; i += 1) {
      const res = await page(`/probe-${i}/${'x'.repeat(i % 40)}`);
      expect(res.statusCode).toBe(200);
      etags.add(String(res.headers.etag));
    }
    const used = process.cpuUsage(cpu);
    const elapsed = performance.now() - started;
    const after = app.pageCache.stats();
    expect(after.builds - before.builds).toBe(1);
    expect(after.entries - before.entries).toBe(1);
    expect(etags.size).toBe(1);
    figure(7, `pages built for ${FRESH} fresh unknown paths (each brotli 11 + gzip 9 on the request path)`, `${FRESH}`, after.builds - before.builds);
    figure(7, `pages kept in memory after ${FRESH} fresh unknown paths`, `${FRESH} (up to 2,000)`, after.entries - before.entries);
    figure(7, `time to serve ${FRESH} fresh unknown paths, one after another (inject)`, '11,612 ms', `${Math.round(elapsed)} ms`);
    figure(7, 'CPU per fresh unknown path (inject, one core)', '31 ms', `${((used.user + used.system) / 1000 / FRESH).toFixed(1)} ms`);
  });

  it('the request path compresses fast; brotli 11 and gzip 9 follow in the thread pool and replace the entry', async () => {
    await app.pageCache.settled();
    const fresh = await page('/register', { 'accept-language': 'de-DE' });
    const identity = (await page('/register', { 'accept-language': 'de-DE', 'accept-encoding': 'identity' })).rawPayload;
    expect(fresh.headers['content-encoding']).toBe('br');
    // What the request itself paid for: brotli at quality 5 (well under a millisecond), not 11.
    expect(fresh.rawPayload.equals(brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }))).toBe(true);
    const best = app.pageCache.stats().bestCompressed;
    await app.pageCache.settled();
    expect(app.pageCache.stats().bestCompressed).toBeGreaterThan(best);
    const later = await page('/register', { 'accept-language': 'de-DE' });
    expect(later.rawPayload.equals(brotliCompressSync(identity, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))).toBe(true);
    expect(brotliDecompressSync(later.rawPayload).equals(identity)).toBe(true);
    expect(later.headers.etag).toBe(fresh.headers.etag);
    figure(7, 'brotli 11 runs on the request path', 'for every new path', 'never (zlib thread pool, after the answer)');
  });

  it('control: a known page is served, cached and revalidated; /register/A and /register/B share one page', async () => {
    const first = await page('/resetPassword');
    expect(first.statusCode).toBe(200);
    expect(first.headers['content-type']).toMatch(/^text\/html/);
    expect(brotliDecompressSync(first.rawPayload).toString()).toContain('<div id="root"');
    const builds = app.pageCache.stats().builds;
    expect((await page('/resetPassword')).headers.etag).toBe(first.headers.etag);
    expect((await page('/resetPassword', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
    await page('/register/A-CODE');
    await page('/register/B-CODE');
    expect(app.pageCache.stats().builds - builds).toBe(1);
  });
});

describe('7. page requests per address', () => {
  it('a limit per address a minute, two instances on one database counting together (20 here)', async () => {
    expect(app.fd.config.pageRateLimit).toEqual({ max: LIMITS.pagesPerAddressPerMinute, timeWindow: 60_000 });
    const store = await newStore({ shared: true });
    const limit = { max: 20 };
    const a = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, rateLimit: false, pageRateLimit: limit });
    const b = await makeApp({ ...store.options, appSecret: TEST_APP_SECRET, rateLimit: false, pageRateLimit: limit, seed: false });
    try {
      const from = '203.0.113.35';
      let served = 0;
      for (let i = 0; i < limit.max; i += 1) {
        const res = await (i % 2 ? a : b).inject({ url: `/login?n=${i}`, headers: PAGE, remoteAddress: from });
        if (res.statusCode === 200) served += 1;
      }
      expect(served).toBe(limit.max);
      const over = await a.inject({ url: '/no/such/page', headers: PAGE, remoteAddress: from });
      expect(over.statusCode).toBe(429);
      expect(Number(over.headers['retry-after'])).toBeGreaterThan(0);
      expect(over.headers['content-type']).toMatch(/^text\/plain/);
      expect(over.body).toMatch(/^Too many page requests from your address\. Try again in \d+ seconds\./);
      figure(7, 'page GETs served per address per minute, all instances together', 'unlimited', `${LIMITS.pagesPerAddressPerMinute}, then 429`);
      // Controls: another address is served; the limited address still signs in (its own budget) and gets its assets.
      expect((await b.inject({ url: '/login', headers: PAGE, remoteAddress: '203.0.113.36' })).statusCode).toBe(200);
      expect(body(await client(b, from).post('/ws/account/login', { email: 'nomfa@demo.test', password: PASSWORD }))).toMatchObject({ resultCode: 'SUCCESS' });
    } finally {
      await a.close();
      await b.close();
      await store.dispose();
    }
  });
});

describe('8. the page that sets fd_bind', () => {
  it("is private: no shared cache hands one visitor's binding nonce to the next", async () => {
    const first = await page('/login');
    const setCookie = [first.headers['set-cookie']].flat().map(String);
    expect(setCookie.some((c) => c.startsWith('fd_bind='))).toBe(true);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    figure(8, 'Cache-Control of the page that sets fd_bind', 'no-cache', String(first.headers['cache-control']));
    // Control: a browser that has its nonce (and its funnel id, also given with the first page) gets
    // the same page, which sets nothing and stays revalidatable.
    const given = (name: string) => new RegExp(`^${name}=([^;]+)`).exec(setCookie.find((c) => c.startsWith(`${name}=`)) ?? '')?.[1] ?? '';
    const again = await page('/login', { cookie: `fd_bind=${given('fd_bind')}; fd_vid=${given('fd_vid')}` });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(String(again.headers.vary)).toContain('Cookie');
    expect(again.headers.etag).toBe(first.headers.etag);
  });
});

reportFigures('3-issue-35-page-cost', 'The attack of issue 35, findings 7 and 8: pages');
