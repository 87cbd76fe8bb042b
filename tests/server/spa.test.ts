import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeApp } from './helpers';

let dir: string;
let app: FastifyInstance;
const INDEX = '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-spa-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), 'console.log(1);');
  fs.writeFileSync(path.join(dir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  fs.writeFileSync(path.join(os.tmpdir(), 'fd-secret.txt'), 'secret');
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('SPA serving', () => {
  it('hashed assets are immutable', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(res.body).toBe('console.log(1);');
  });
  it('a missing asset is a 404, never index.html', async () => {
    const res = await app.inject({ url: '/assets/index-missing.js', headers: html });
    expect(res.statusCode).toBe(404);
    expect(res.body).not.toContain('<div id="root">');
  });
  it.each(['/', '/login', '/mfa?state=abc', '/app/', '/eus/', '/register/DEMO-TRIAL', '/some/unknown/path'])('%s answers index.html, no-cache', async (url) => {
    const res = await app.inject({ url, headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    // The first page gives the browser its fd_bind nonce: no shared cache may keep it.
    expect(String(res.headers['set-cookie'])).toMatch(/^fd_bind=/);
    expect(res.headers['cache-control']).toBe('private, no-cache');
    // A browser that has its nonce and its funnel id gets a page that sets nothing.
    const again = await app.inject({ url, headers: html, cookies: { fd_bind: 'n'.repeat(43), fd_vid: 'v'.repeat(22) } });
    expect(again.headers['set-cookie']).toBeUndefined();
    expect(again.headers['cache-control']).toBe('no-cache');
    expect(res.body).toBe(INDEX);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toContain('unsafe-inline');
  });
  it('a page gives a new browser its binding nonce, so calls made at once can never be given two; a browser with one keeps it', async () => {
    const first = await app.inject({ url: '/login', headers: html });
    const given = [first.headers['set-cookie']].flat().find((c) => c?.startsWith('fd_bind='));
    expect(given).toMatch(/^fd_bind=[A-Za-z0-9_-]{43};.*HttpOnly/);
    const nonce = given!.slice('fd_bind='.length, given!.indexOf(';'));
    // Control: the same browser, with its cookie, is given no other one.
    const again = await app.inject({ url: '/mfa?state=abc', headers: { ...html, cookie: `fd_bind=${nonce}` } });
    expect(again.statusCode).toBe(200);
    expect([again.headers['set-cookie']].flat().filter((c) => c?.startsWith('fd_bind='))).toEqual([]);
  });
  it('a page gives a new browser its funnel id too, which its idle-time calls then carry; a browser with one keeps it', async () => {
    const first = await app.inject({ url: '/login', headers: html });
    const given = [first.headers['set-cookie']].flat().find((c) => c?.startsWith('fd_vid='));
    expect(given).toMatch(/^fd_vid=[A-Za-z0-9_-]{22,64};.*HttpOnly/);
    const id = given!.slice('fd_vid='.length, given!.indexOf(';'));
    // The experiments' call and the first batch, sent side by side with it, are given no other id.
    const [assignments, batch] = await Promise.all([
      app.inject({ url: '/ws/experiments', cookies: { fd_vid: id } }),
      app.inject({ method: 'POST', url: '/ws/events', cookies: { fd_vid: id }, payload: { events: [{ kind: 'step', screen: 'login', step: 'credentials' }] } }),
    ]);
    expect(assignments.statusCode).toBe(200);
    expect(batch.statusCode).toBe(202);
    for (const res of [assignments, batch]) expect(res.cookies.find((c) => c.name === 'fd_vid')).toBeUndefined();
    // Control: without the page's id, a call is given one of its own (what made the calls wait before).
    const bare = await app.inject({ url: '/ws/experiments' });
    expect(bare.cookies.find((c) => c.name === 'fd_vid')?.value).toMatch(/^[A-Za-z0-9_-]{22,64}$/);
    const again = await app.inject({ url: '/register', headers: { ...html, cookie: `fd_vid=${id}` } });
    expect([again.headers['set-cookie']].flat().filter((c) => c?.startsWith('fd_vid='))).toEqual([]);
  });
  it('HEAD works too', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/login', headers: html });
    expect(res.statusCode).toBe(200);
  });
  it('root files of the build are served; traversal is not', async () => {
    const fav = await app.inject({ url: '/favicon.svg' });
    expect(fav.statusCode).toBe(200);
    expect(fav.headers['cache-control']).toBe('no-cache');
    for (const url of ['/../fd-secret.txt', '/%2e%2e/fd-secret.txt', '/assets/..%2f..%2ffd-secret.txt']) {
      const res = await app.inject({ url });
      expect(res.body, url).not.toBe('secret');
    }
  });
  it('non-HTML requests for unknown paths get 404 JSON; API paths are never index.html', async () => {
    expect((await app.inject({ url: '/nope.json', headers: { accept: 'application/json' } })).statusCode).toBe(404);
    for (const url of ['/ws/x', '/account/x', '/expired-account/x', '/branding/x', '/dev/x']) {
      const res = await app.inject({ url, headers: html });
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ error: 'NOT_FOUND' });
    }
  });
  it('without a build: 503 "App not built"', async () => {
    const empty = await makeApp({ staticDir: path.join(dir, 'does-not-exist') });
    try {
      const res = await empty.inject({ url: '/login', headers: html });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('App not built: run npm run build');
      expect((await empty.inject({ url: '/healthz' })).statusCode).toBe(200);
    } finally {
      await empty.close();
    }
  });
});
