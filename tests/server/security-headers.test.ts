import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contentSecurityPolicy, inlineHashes, NON_HTML_CSP } from '../../server/security/headers';
import { makeApp } from './helpers';

/** Security headers on every kind of answer (server/security/headers.ts). */

let dir: string;
let app: FastifyInstance;
const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-sec-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><body><div id="root"></div><script type="module" src="/assets/a-1.js"></script></body></html>',
  );
  fs.writeFileSync(path.join(dir, 'assets', 'a-1.js'), 'console.log(1);');
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Parses a CSP header into directive -> sources. */
function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name as string, sources];
      }),
  );
}

function expectCommonHeaders(res: LightMyRequestResponse) {
  expect(res.headers['x-content-type-options']).toBe('nosniff');
  expect(res.headers['referrer-policy']).toBe('same-origin');
  expect(res.headers['x-frame-options']).toBe('DENY');
  expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
  expect(String(res.headers['permissions-policy'])).toContain('camera=()');
  expect(String(res.headers['permissions-policy'])).toContain('publickey-credentials-get=(self)');
  expect(res.headers['content-security-policy']).toBeTruthy();
}

describe('the SPA page policy', () => {
  it.each(['/login', '/mfa?state=x', '/register/DEMO-TRIAL', '/resetPassword/abc', '/no/such/page'])('%s: strict CSP, no unsafe-*', async (url) => {
    const res = await app.inject({ url, headers: html });
    expect(res.statusCode).toBe(200);
    expectCommonHeaders(res);
    const d = directives(String(res.headers['content-security-policy']));
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(d.get('style-src')).toEqual(["'self'"]);
    expect(d.get('object-src')).toEqual(["'none'"]);
    expect(d.get('base-uri')).toEqual(["'none'"]);
    expect(d.get('frame-ancestors')).toEqual(["'none'"]);
    expect(d.get('form-action')).toEqual(["'self'"]);
    expect(d.get('require-trusted-types-for')).toEqual(["'script'"]);
    expect(String(res.headers['content-security-policy'])).not.toMatch(/unsafe-(inline|eval|hashes)|\*/);
    expect(res.headers['strict-transport-security']).toBeUndefined(); // plain http: no HSTS
  });

  it('HSTS over https (behind a trusted TLS proxy)', async () => {
    const proxied = await makeApp({ staticDir: dir, trustProxy: ['127.0.0.1'] });
    try {
      const res = await proxied.inject({ url: '/login', headers: { ...html, 'x-forwarded-proto': 'https' } });
      expect(res.headers['strict-transport-security']).toMatch(/^max-age=\d{8,}; includeSubDomains$/);
      const api = await proxied.inject({ url: '/healthz', headers: { 'x-forwarded-proto': 'https' } });
      expect(api.headers['strict-transport-security']).toBeTruthy();
    } finally {
      await proxied.close();
    }
  });

  it('reCAPTCHA hosts appear only when that provider is configured', async () => {
    const plain = String((await app.inject({ url: '/login', headers: html })).headers['content-security-policy']);
    expect(plain).not.toContain('google');
    const withKey = await makeApp({ staticDir: dir, recaptcha: { siteKey: 'site-key', projectId: 'demo-project', apiKey: 'api-key' } });
    try {
      const d = directives(String((await withKey.inject({ url: '/login', headers: html })).headers['content-security-policy']));
      expect(d.get('script-src')).toEqual(["'self'", 'https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/']);
      expect(d.get('frame-src')).toContain('https://www.google.com/recaptcha/');
    } finally {
      await withKey.close();
    }
  });

  it('form-action allows the configured help-centre / IdP origins; connect-src the error-reporting host', async () => {
    const configured = await makeApp({
      staticDir: dir,
      formActionOrigins: ['https://help.example.com'],
      errorReportingDsn: 'https://pub@o1.ingest.example.io/42',
    });
    try {
      const d = directives(String((await configured.inject({ url: '/login', headers: html })).headers['content-security-policy']));
      expect(d.get('form-action')).toEqual(["'self'", 'https://help.example.com']);
      expect(d.get('connect-src')).toEqual(["'self'", 'https://o1.ingest.example.io']);
    } finally {
      await configured.close();
    }
  });
});

describe('every other answer', () => {
  it.each([
    ['JSON', { url: '/healthz' }],
    ['JSON 404', { url: '/ws/nope' }],
    ['JSON 400', { method: 'POST' as const, url: '/ws/account/login', payload: '{', headers: { 'content-type': 'application/json' } }],
    ['asset', { url: '/assets/a-1.js' }],
    ['missing asset', { url: '/assets/missing.js' }],
    ['branding', { url: '/branding/generalData' }],
  ])('%s carries the headers and a policy that allows nothing', async (_name, request) => {
    const res = await app.inject(request);
    expectCommonHeaders(res);
    expect(res.headers['content-security-policy']).toBe(NON_HTML_CSP);
  });

  it('server-rendered /dev pages: the strict policy plus the hash of their own inline style, never unsafe-inline', async () => {
    const res = await app.inject({ url: '/dev/outbox.html' });
    expect(res.headers['content-type']).toMatch(/text\/html/);
    const style = /<style>([\s\S]*?)<\/style>/.exec(res.body)?.[1] ?? '';
    expect(style).not.toBe('');
    const hash = crypto.createHash('sha256').update(style).digest('base64');
    const d = directives(String(res.headers['content-security-policy']));
    expect(d.get('style-src')).toEqual(["'self'", `'sha256-${hash}'`]);
    expect(d.get('script-src')).toEqual(["'self'"]);
    expect(String(res.headers['content-security-policy'])).not.toContain('unsafe');
  });
});

describe('helpers', () => {
  it('inlineHashes hashes inline blocks only (not <script src>)', () => {
    const h = inlineHashes('<script src="/a.js"></script><script>x()</script><STYLE media="x">b{}</STYLE><script></script>');
    expect(h.scriptHashes).toEqual(['sha256-' + crypto.createHash('sha256').update('x()').digest('base64')]);
    expect(h.styleHashes).toEqual(['sha256-' + crypto.createHash('sha256').update('b{}').digest('base64')]);
  });

  it('contentSecurityPolicy never emits unsafe sources, whatever the options', () => {
    for (const recaptcha of [false, true]) {
      const csp = contentSecurityPolicy({
        recaptcha,
        formActionOrigins: ['https://h.example'],
        connectOrigins: ['https://s.example'],
        scriptHashes: ['sha256-x'],
      });
      expect(csp).not.toMatch(/unsafe-(inline|eval)/);
      expect(csp).toContain("object-src 'none'");
    }
  });
});

describe('a route with its own policy', () => {
  it('config.contentSecurityPolicy replaces the app policy for that route only', async () => {
    const custom = await makeApp({ staticDir: dir });
    const own = "default-src 'self'; script-src 'self'; frame-ancestors 'none'";
    custom.get('/dev/own-policy', { config: { contentSecurityPolicy: own } }, async (_req, reply) => reply.type('text/html').send('<p>x</p>'));
    try {
      const res = await custom.inject({ url: '/dev/own-policy' });
      expect(res.headers['content-security-policy']).toBe(own);
      expect(res.headers['x-frame-options']).toBe('DENY');
      const other = await custom.inject({ url: '/login', headers: html });
      expect(other.headers['content-security-policy']).toContain('require-trusted-types-for');
    } finally {
      await custom.close();
    }
  });
});
