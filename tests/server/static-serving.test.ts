import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { routePattern } from '../../server/spa/build';
import { languageFor } from '../../server/spa/html';
import { pickEncoding } from '../../server/spa/static';
import { makeApp } from './helpers';

/** Precompressed assets, per-route HTML with preloads, caching (server/spa/; docs/performance.md). */
let dir: string;
let app: FastifyInstance;
const INDEX =
  '<!doctype html><html><head><title>x</title>\n  </head><body><div id="root"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const JS = `console.log(${JSON.stringify('x'.repeat(2000))});`;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-static-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), JS);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.br'), brotliCompressSync(JS));
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js.gz'), gzipSync(JS));
  fs.writeFileSync(path.join(dir, 'assets', 'plain-def456.js'), 'console.log(2);');
  fs.writeFileSync(
    path.join(dir, '.vite', 'preload.json'),
    JSON.stringify({
      routes: [
        { path: '/login', files: ['/assets/login-1.js', '/assets/email-2.js'] },
        { path: '/resetPassword/:verificationCode?', files: ['/assets/resetPassword-3.js'] },
      ],
      common: ['/assets/appConfig-4.js'],
      // Per language, its loader module and its chunk of all texts (a page without a prerendered first state loads both).
      locales: { 'en-us': { index: '/assets/en-us-5.js', all: '/assets/en-us-7.js' }, 'de-de': { index: '/assets/de-de-6.js', all: '/assets/de-de-8.js' } },
    }),
  );
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

describe('hashed assets', () => {
  it('brotli when accepted, with Vary and the immutable cache', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['content-type']).toMatch(/javascript/);
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(brotliDecompressSync(res.rawPayload).toString()).toBe(JS);
  });
  it('gzip for a client without brotli', async () => {
    const res = await app.inject({ url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(res.rawPayload).toString()).toBe(JS);
  });
  it('the file itself without Accept-Encoding, or when no compressed sibling exists', async () => {
    const plain = await app.inject({ url: '/assets/index-abc123.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(JS);
    const small = await app.inject({ url: '/assets/plain-def456.js', headers: { 'accept-encoding': 'br' } });
    expect(small.statusCode).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.body).toBe('console.log(2);');
  });
});

describe('index.html per route', () => {
  it('lists the first screen, its locale and the start-up chunks as modulepreload; no-cache; compressed', async () => {
    const res = await app.inject({
      url: '/login?return_to=%2Fapp%2F',
      headers: { ...html, 'accept-encoding': 'br', 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['cache-control']).toBe('private, no-cache');
    expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    const body = brotliDecompressSync(res.rawPayload).toString();
    for (const file of ['/assets/login-1.js', '/assets/email-2.js', '/assets/de-de-6.js', '/assets/de-de-8.js', '/assets/appConfig-4.js']) {
      expect(body).toContain(`<link rel="modulepreload" crossorigin href="${file}">`);
    }
    expect(body).not.toContain('en-us-5');
    expect(body.indexOf('modulepreload')).toBeLessThan(body.indexOf('</head>'));
  });
  it('keeps the strict CSP of the SPA (no inline hashes, no unsafe-*)', async () => {
    const res = await app.inject({ url: '/login', headers: html });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toMatch(/sha256-|unsafe-inline|unsafe-eval/);
  });
  it('optional parameters match with and without the value; unknown paths get only the common preloads', async () => {
    const withCode = await app.inject({ url: '/resetPassword/ABC', headers: html });
    const without = await app.inject({ url: '/resetPassword', headers: html });
    expect(withCode.body).toContain('/assets/resetPassword-3.js');
    expect(without.body).toContain('/assets/resetPassword-3.js');
    const other = await app.inject({ url: '/somewhere/else', headers: html });
    expect(other.body).not.toContain('login-1');
    expect(other.body).toContain('/assets/appConfig-4.js');
    expect(other.body).toContain('/assets/en-us-5.js');
    expect(other.body).toContain('/assets/en-us-7.js');
  });
  it('an ETag, and 304 for a matching If-None-Match', async () => {
    const first = await app.inject({ url: '/login', headers: html });
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^".+"$/);
    const again = await app.inject({ url: '/login', headers: { ...html, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });
  it('HTML stays small', async () => {
    const res = await app.inject({ url: '/login', headers: { ...html, 'accept-encoding': 'br' } });
    expect(res.rawPayload.length).toBeLessThan(1024);
  });
});

describe('build metadata', () => {
  it('the .vite/ manifests are not served', async () => {
    for (const url of ['/.vite/preload.json', '/%2evite/preload.json']) {
      const res = await app.inject({ url, headers: { accept: '*/*' } });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('modulepreload');
    }
    const page = await app.inject({ url: '/.vite/preload.json', headers: html });
    expect(page.body).not.toContain('"routes"');
  });
});

describe('helpers', () => {
  it('routePattern follows the router syntax', () => {
    expect(routePattern('/login').test('/login')).toBe(true);
    expect(routePattern('/login').test('/login/')).toBe(true);
    expect(routePattern('/login').test('/loginx')).toBe(false);
    expect(routePattern('/activate/user/:code').test('/activate/user/abc')).toBe(true);
    expect(routePattern('/activate/user/:code').test('/activate/user/')).toBe(false);
    expect(routePattern('/app/').test('/app')).toBe(true);
  });
  it('pickEncoding honours q=0', () => {
    expect(pickEncoding('gzip, br')).toBe('br');
    expect(pickEncoding('br;q=0, gzip')).toBe('gzip');
    expect(pickEncoding('identity')).toBe('identity');
    expect(pickEncoding('*')).toBe('br');
    expect(pickEncoding('')).toBe('identity');
  });
  it('languageFor mirrors the client (exact tag, then same base, else en-us)', () => {
    expect(languageFor('fr-CA,fr;q=0.8', ['en-us', 'fr-fr'])).toBe('fr-fr');
    expect(languageFor('xx', ['en-us', 'fr-fr'])).toBe('en-us');
    expect(languageFor('en;q=0.1, de-DE', ['en-us', 'de-de'])).toBe('de-de');
  });
});
