import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ShellData } from '../../server/spa/shell';
import { THEMES } from '../../src/app/themes';
import { brandMarkSvg } from '../../src/ui/brand-mark';
import { makeApp } from './helpers';

/**
 * The static page in each route's HTML (server/spa/shell.ts): frame and card with the heading in the
 * visitor's language, a <noscript> message, the host's branding respected, no inline script; and a
 * bare `curl /login` gets the page (docs/server.md).
 */
let dir: string;
let app: FastifyInstance;
const INDEX =
  '<!doctype html>\n<html lang="en-us"><head><title>Front Door</title></head><body><div id="root" data-fatal="x"></div><script type="module" src="/assets/index-abc123.js"></script></body></html>';
const texts = (lang: 'en-us' | 'de-de' | 'he') =>
  lang === 'he'
    ? {
        'app.defaultTitle': 'Front Door',
        'app.copyright': '© {{from}}–{{to}} Front Door. כל הזכויות שמורות.',
        'app.contactUs': 'יצירת קשר',
        'common.loading': 'בטעינה…',
        'common.noscript': 'הדף הזה דורש JavaScript.',
        'login.title': 'כניסה',
        'register.title': 'הרשמה',
      }
    : lang === 'en-us'
      ? {
          'app.defaultTitle': 'Front Door',
          'app.copyright': '© {{from}}–{{to}} Front Door. All rights reserved.',
          'app.contactUs': 'Contact us',
          'common.loading': 'Loading…',
          'common.noscript': 'This page needs JavaScript.',
          'login.title': 'Sign in',
          'register.title': 'Register <now>',
        }
      : {
          'app.defaultTitle': 'Front Door',
          'app.copyright': '© {{from}}–{{to}} Front Door. Alle Rechte vorbehalten.',
          'app.contactUs': 'Kontakt',
          'common.loading': 'Wird geladen …',
          'common.noscript': 'Diese Seite benötigt JavaScript.',
          'login.title': 'Anmelden',
          'register.title': 'Registrieren',
        };
const SHELL: ShellData = {
  routes: [
    { path: '/login', title: 'login.title' },
    { path: '/register/:trialLinkCode', title: 'register.title' },
  ],
  texts: { 'en-us': texts('en-us'), 'de-de': texts('de-de'), he: texts('he') },
  lang: { 'en-us': 'en-US', 'de-de': 'de-DE', he: 'he' },
  rtl: ['he'],
  frame: { contactUrl: 'https://www.example.com/contact-us', copyrightFirstYear: 2014, themes: [...THEMES], brandMark: brandMarkSvg() },
  languageCookie: 'fd-language',
};

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-shell-'));
  fs.mkdirSync(path.join(dir, '.vite'));
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, '.vite', 'shell.json'), JSON.stringify(SHELL));
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const page = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { accept: 'text/html', ...headers } });

describe('the static page of a route', () => {
  it('has the frame, the card with its heading, Loading… and a noscript message, in the Accept-Language language', async () => {
    const res = await page('/login', { 'accept-language': 'de-DE,de;q=0.9,en;q=0.5' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<html lang="de-DE"');
    expect(res.body).toContain('<title>Anmelden | Front Door</title>');
    expect(res.body).toContain('<h1 class="fd-screen__title">Anmelden</h1>');
    expect(res.body).toContain('<noscript><p class="fd-noscript">Diese Seite benötigt JavaScript.</p></noscript>');
    // The card's brand as the app draws it (src/ui/Card.tsx): the product mark and name, a link home.
    expect(res.body).toMatch(
      /<section class="fd-screen fd-screen--card"><a href="\/login" class="fd-brand"><svg class="fd-brand__mark"[^>]*aria-hidden="true"[^>]*>.*<\/svg><span class="fd-brand__name">Front Door<\/span><\/a><h1/,
    );
    expect(res.body).toContain('<html lang="de-DE" data-theme="theme-ninja-blue"');
    // The language picker's place, kept for the app (no jump when it comes); nothing to read meanwhile.
    expect(res.body).toContain(
      '<header class="fd-header"><div class="fd-toolbar" aria-hidden="true"><span class="fd-switch--placeholder"></span></div></header>',
    );
    expect(res.body).toContain(`© 2014–${new Date().getFullYear()} Front Door. Alle Rechte vorbehalten.`);
    expect(String(res.headers.vary)).toMatch(/accept-language/i);
  });

  it('a right-to-left language: lang and dir="rtl" on the page, its texts in the card and the noscript message', async () => {
    const res = await page('/login', { 'accept-language': 'he-IL,he;q=0.9' });
    expect(res.body).toContain('<html lang="he" dir="rtl" data-theme="theme-ninja-blue"');
    expect(res.body).toContain('<h1 class="fd-screen__title">כניסה</h1>');
    expect(res.body).toContain('<noscript><p class="fd-noscript">הדף הזה דורש JavaScript.</p></noscript>');
    // Left-to-right languages keep the default direction: no dir attribute to override.
    expect((await page('/login', { 'accept-language': 'de-DE' })).body).not.toContain('dir=');
  });

  it('English by default; route parameters match; texts are escaped', async () => {
    const res = await page('/register/DEMO-TRIAL');
    expect(res.body).toContain('<h1 class="fd-screen__title">Register &lt;now&gt;</h1>');
    expect(res.body).toContain('<html lang="en-US"');
  });

  it('any other path shows the sign-in card (the app goes to /login)', async () => {
    expect((await page('/no/such/page')).body).toContain('<h1 class="fd-screen__title">Sign in</h1>');
  });

  it('no inline script or style, and the strict CSP unchanged', async () => {
    const res = await page('/login');
    expect(res.body.match(/<script\b[^>]*>/g)).toEqual(['<script type="module" src="/assets/index-abc123.js">']);
    expect(res.body).not.toMatch(/<style|style="/);
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
  });

  it('a branded host: its own name, logo and theme, no product name or footer; a switched-off site: no card', async () => {
    const branded = await page('/login', { host: 'branded.localhost:8080' });
    expect(branded.body).toContain('<title>Sign in | Acme IT</title>');
    expect(branded.body).toContain('<html lang="en-US" data-theme="theme-four"');
    expect(branded.body).toContain('<a href="/login" class="fd-brand"><img class="fd-brand__logo" src="/branding/assets/acme-logo.svg" alt="Acme IT"></a>');
    expect(branded.body).not.toContain('fd-brand__name');
    expect(branded.body).not.toContain('fd-footer');
    expect(branded.body).toContain('<h1 class="fd-screen__title">Sign in</h1>');
    const closed = await page('/login', { host: 'closed.localhost:8080' });
    // The root carries the start-up answers (data-page: the site is switched off) and no card.
    expect(closed.body).toMatch(/<div id="root" data-fatal="x" data-page="[^"]*&quot;isEnabled&quot;:false[^"]*"><\/div>/);
    expect(closed.body).not.toContain('fd-screen__title');
  });
});

describe('what the page tells the app', () => {
  it("#root's data-page: the language and the answers of the two start-up calls, escaped", async () => {
    const res = await page('/login', { 'accept-language': 'de-DE', host: 'branded.localhost:8080' });
    const raw = /<div id="root" [^>]*data-page="([^"]*)"/.exec(res.body)?.[1] ?? '';
    const facts = JSON.parse(
      raw.replaceAll('&quot;', '"').replaceAll('&amp;', '&').replaceAll('&lt;', '<').replaceAll('&gt;', '>').replaceAll('&#39;', "'"),
    ) as Record<string, unknown>;
    expect(facts).toMatchObject({
      lang: 'de-de',
      config: { selfRegistrationEnabled: true },
      branding: { isEnabled: true, browserName: 'Acme IT', theme: 'theme-four' },
    });
    // A page the app draws itself (no prerendered markup here): nothing to hydrate.
    expect(facts.hydrate).toBeUndefined();
  });

  it('the language the visitor chose (the fd-language cookie) wins over Accept-Language; an unknown one does not', async () => {
    expect((await page('/login', { 'accept-language': 'de-DE', cookie: 'fd-language=he' })).body).toContain('<html lang="he" dir="rtl"');
    expect((await page('/login', { 'accept-language': 'de-DE', cookie: 'fd-language=xx-yy' })).body).toContain('<html lang="de-DE"');
  });
});

describe('who gets the page', () => {
  it('a bare curl (Accept */* or none) for a page path gets the HTML, not a 404', async () => {
    for (const headers of [{ accept: '*/*' }, {}]) {
      const res = await app.inject({ url: '/login', headers });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('fd-screen__title');
    }
  });
  it('a file that does not exist is still a 404 JSON for such a request, and JSON clients never get the page', async () => {
    const file = await app.inject({ url: '/missing.js', headers: { accept: '*/*' } });
    expect(file.statusCode).toBe(404);
    expect(file.json()).toMatchObject({ error: 'NOT_FOUND' });
    expect((await app.inject({ url: '/login', headers: { accept: 'application/json' } })).statusCode).toBe(404);
  });
});
