import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { styleHash } from '../../scripts/vite-static';
import { makeApp } from './helpers';

/**
 * The entry's CSS inlined into the page (server/spa/build.ts and html.ts, issue 27): a page paints without a stylesheet
 * request, and style-src allows exactly the build's text by the hash the build computed
 * (.vite/preload.json `styles`), never 'unsafe-inline'. A file whose text no longer has that hash
 * keeps its link, and the policy gains nothing.
 */
const CSS = ':root{--x:1px}.fd-page{margin:0 auto}\n';
const INDEX =
  '<!doctype html><html><head><title>x</title>\n    <link rel="stylesheet" crossorigin href="/assets/index-css1.css">\n  </head><body><div id="root"></div><script type="module" src="/assets/index-abc.js"></script></body></html>';
const html = { accept: 'text/html' };
const styleSrc = (csp: unknown) => /style-src ([^;]*)/.exec(String(csp))?.[1] ?? '';

function buildDir(css: string, hash: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-inline-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, 'assets', 'index-css1.css'), css);
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc.js'), 'console.log(1);');
  // Another page of the build (the bench writes /login without its scripts as one): the same CSS inline.
  fs.writeFileSync(path.join(dir, 'plain.html'), `<!doctype html><html><head><style>${css}</style></head><body><form></form></body></html>`);
  fs.writeFileSync(
    path.join(dir, '.vite', 'preload.json'),
    JSON.stringify({ routes: [], common: [], locales: { 'en-us': {} }, styles: [{ href: '/assets/index-css1.css', hash }] }),
  );
  return dir;
}

describe('the first-load CSS inlined with its build-time hash', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dir = buildDir(CSS, styleHash(CSS));
    app = await makeApp({ staticDir: dir });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('the build hashes the exact text (what a browser hashes for the <style> block)', () => {
    expect(styleHash(CSS)).toBe(`sha256-${createHash('sha256').update(CSS).digest('base64')}`);
  });

  it('the page carries the CSS as a <style> and no stylesheet link; style-src names its hash, nothing inline else', async () => {
    const res = await app.inject({ url: '/login', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain(`<style>${CSS}</style>`);
    expect(res.body).not.toContain('rel="stylesheet"');
    const csp = res.headers['content-security-policy'];
    expect(styleSrc(csp)).toBe(`'self' '${styleHash(CSS)}'`);
    expect(String(csp)).toContain("script-src 'self';");
    expect(String(csp)).not.toMatch(/unsafe-inline|unsafe-eval/);
    // The CSS file is still served for whoever asks for it (immutable asset).
    const file = await app.inject({ url: '/assets/index-css1.css' });
    expect(file.body).toBe(CSS);
  });

  it('a cached page (second request, and a 304) and another page of the build keep the hash; JSON answers get none', async () => {
    const first = await app.inject({ url: '/register', headers: html });
    const again = await app.inject({ url: '/register', headers: html });
    expect(styleSrc(again.headers['content-security-policy'])).toBe(`'self' '${styleHash(CSS)}'`);
    const revalidated = await app.inject({ url: '/register', headers: { ...html, 'if-none-match': String(first.headers.etag) } });
    expect(revalidated.statusCode).toBe(304);
    const other = await app.inject({ url: '/plain.html', headers: html });
    expect(other.statusCode).toBe(200);
    expect(styleSrc(other.headers['content-security-policy'])).toBe(`'self' '${styleHash(CSS)}'`);
    const api = await app.inject({ url: '/branding/generalData' });
    expect(String(api.headers['content-security-policy'])).not.toContain('sha256');
  });
});

describe('a CSS file that does not match the build hash', () => {
  let dir: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    // The manifest hashed other text: the file changed after the build (or was tampered with).
    dir = buildDir(CSS, styleHash('.other{color:red}'));
    app = await makeApp({ staticDir: dir });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('keeps its stylesheet link and the policy allows no inline style', async () => {
    const res = await app.inject({ url: '/login', headers: html });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<link rel="stylesheet" crossorigin href="/assets/index-css1.css">');
    expect(res.body).not.toContain('<style>');
    expect(styleSrc(res.headers['content-security-policy'])).toBe("'self'");
    const other = await app.inject({ url: '/plain.html', headers: html });
    expect(styleSrc(other.headers['content-security-policy'])).toBe("'self'");
  });
});
