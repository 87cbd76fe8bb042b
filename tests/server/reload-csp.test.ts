import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makeApp } from './helpers';

/** A reload revalidates index.html (304): the answer must not carry a policy that replaces the cached page's. */
let app: FastifyInstance;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-spa-'));
  writeFileSync(join(dir, 'index.html'), '<!doctype html><html><head><script type="module" src="/assets/x.js"></script></head><body></body></html>');
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
});

describe('index.html revalidation', () => {
  it('a 304 for the SPA carries no Content-Security-Policy', async () => {
    const first = await app.inject({ method: 'GET', url: '/app/', headers: { accept: 'text/html' } });
    expect(first.statusCode).toBe(200);
    expect(String(first.headers['content-security-policy'])).toContain("script-src 'self'");
    const etag = String(first.headers.etag ?? '');
    const lastModified = String(first.headers['last-modified'] ?? '');
    const again = await app.inject({
      method: 'GET',
      url: '/app/',
      headers: { accept: 'text/html', ...(etag ? { 'if-none-match': etag } : {}), ...(lastModified ? { 'if-modified-since': lastModified } : {}) },
    });
    if (again.statusCode === 304) expect(again.headers['content-security-policy']).toBeUndefined();
    else expect(String(again.headers['content-security-policy'])).toContain("script-src 'self'");
  });
});
