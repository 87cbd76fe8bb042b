import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillSlots, PAGE_SLOTS, pageKey, siteFacts, type PagesManifest } from '../../server/spa/pages';
import type { ShellData } from '../../server/spa/shell';
import { THEMES } from '../../src/app/themes';
import { brandMarkSvg } from '../../src/ui/brand-mark';
import { makeApp } from './helpers';

/**
 * Which prerendered page the server sends (server/spa/html.ts, issue 27), on a hand-made build: the page
 * of the visitor's language and of the site's facts, its slots filled; the loading card where the
 * page could not be written ahead (a query parameter the screen reads, a browser language other than
 * the page's for a page that shows it, an unknown path); the facts and texts the app starts from.
 */
let dir: string;
let app: FastifyInstance;
const INDEX =
  '<!doctype html>\n<html lang="en-us" data-theme="theme-ninja-blue"><head><title>Front Door</title><script type="module" crossorigin src="/assets/index-abc.js"></script></head><body><div id="root" data-fatal="x"></div></body></html>';
const texts = {
  'app.defaultTitle': 'Front Door',
  'app.copyright': '© {{from}}–{{to}}',
  'app.contactUs': 'Contact',
  'common.loading': '…',
  'common.noscript': 'JS',
};
const SHELL: ShellData = {
  routes: [
    { path: '/login', title: 'login.title' },
    { path: '/register', title: 'register.title' },
  ],
  texts: {
    'en-us': { ...texts, 'login.title': 'Sign in', 'register.title': 'Register' },
    'de-de': { ...texts, 'login.title': 'Anmelden', 'register.title': 'Registrieren' },
  },
  lang: { 'en-us': 'en-US', 'de-de': 'de-DE' },
  rtl: [],
  frame: { contactUrl: 'https://example.com', copyrightFirstYear: 2014, themes: [...THEMES], brandMark: brandMarkSvg() },
  languageCookie: 'fd-language',
};
// Per language: the loader module, all texts, and each screen's first texts (tooling/generate/data.ts).
const locales = (lang: string) => Object.fromEntries(['index', 'all', 'first-login', 'first-register'].map((file) => [file, `/assets/${lang}-${file}.js`]));
const PRELOAD = {
  routes: [{ path: '/login', files: ['/assets/login-1.js'] }],
  common: [],
  locales: { 'en-us': locales('en-us'), 'de-de': locales('de-de') },
  early: '/assets/early-1.js',
};
const PAGES: PagesManifest = {
  slots: PAGE_SLOTS,
  languageCookie: 'fd-language',
  routes: [
    {
      path: '/login',
      screenId: 'login',
      screen: { site: ['brand', 'production'], query: ['state'], texts: ['first-login'] },
      loading: { site: ['brand'] },
    },
    {
      path: '/register',
      screenId: 'register',
      screen: { site: ['brand'], query: [], texts: ['first-register'], browserLanguage: true },
      loading: { site: ['brand'] },
    },
    {
      path: '/resetPassword/:verificationCode?',
      screenId: 'resetPassword',
      screen: { site: ['brand'], query: [], texts: ['first-resetPassword'], optional: ['verificationCode'] },
      loading: { site: ['brand'] },
    },
  ],
};
const facts = (brand: string, production = '0') => ({ brand, production, selfRegistration: '1' });
const pagesOf = (lang: string) => ({
  [pageKey('/login', 'screen', ['brand', 'production'], facts('none'))]: `<p>${lang} login none © ${PAGE_SLOTS.year}</p>`,
  [pageKey('/login', 'screen', ['brand', 'production'], facts('logo'))]: `<img src="${PAGE_SLOTS.logo}" alt="${PAGE_SLOTS.brandName}">`,
  [pageKey('/login', 'loading', ['brand'], facts('none'))]: `<p>${lang} login loading</p>`,
  [pageKey('/register', 'screen', ['brand'], facts('none'))]: `<p>${lang} register</p>`,
  [pageKey('/register', 'loading', ['brand'], facts('none'))]: `<p>${lang} register loading</p>`,
  [pageKey('/resetPassword/:verificationCode?', 'screen', ['brand'], facts('none'))]: `<p>${lang} reset request</p>`,
  [pageKey('/resetPassword/:verificationCode?', 'loading', ['brand'], facts('none'))]: `<p>${lang} reset loading</p>`,
  [pageKey('*', 'disabled', [], facts('none'))]: `<p>${lang} closed</p>`,
});

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-pages-'));
  fs.mkdirSync(path.join(dir, '.vite/pages'), { recursive: true });
  fs.writeFileSync(path.join(dir, 'index.html'), INDEX);
  fs.writeFileSync(path.join(dir, '.vite/shell.json'), JSON.stringify(SHELL));
  fs.writeFileSync(path.join(dir, '.vite/preload.json'), JSON.stringify(PRELOAD));
  fs.writeFileSync(path.join(dir, '.vite/pages.json'), JSON.stringify(PAGES));
  for (const lang of ['en-us', 'de-de']) fs.writeFileSync(path.join(dir, `.vite/pages/${lang}.json`), JSON.stringify(pagesOf(lang)));
  app = await makeApp({ staticDir: dir });
});
afterAll(async () => {
  await app.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) => app.inject({ url, headers: { accept: 'text/html', ...headers } });
const rootOf = (html: string) => /<div id="root"[^>]*>(.*)<\/div><\/body>/s.exec(html)?.[1];
const factsOf = (html: string) =>
  JSON.parse((/data-page="([^"]*)"/.exec(html)?.[1] ?? '{}').replaceAll('&quot;', '"').replaceAll('&amp;', '&')) as {
    lang?: string;
    hydrate?: boolean;
    texts?: string[];
    textsFile?: string;
  };
const preloads = (html: string) => [...html.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((m) => m[1]);

describe('the prerendered page of a request', () => {
  it("the route's first state in the visitor's language, its year filled in, to be hydrated with its first texts", async () => {
    const res = await get('/login', { 'accept-language': 'de-DE' });
    expect(rootOf(res.body)).toBe(`<p>de-de login none © ${new Date().getFullYear()}</p>`);
    // One text chunk, named with its file: the app imports it at once, no loader module before it.
    expect(factsOf(res.body)).toMatchObject({ lang: 'de-de', hydrate: true, texts: ['first-login'], textsFile: '/assets/de-de-first-login.js' });
    // The early script first, exactly the screen's first texts and its chunk as preloads (the texts
    // first: the route's files end with its idle-time chunks, which queue last over HTTP/1.1).
    expect(res.body).toContain('<script type="module" async src="/assets/early-1.js"></script>');
    expect(preloads(res.body)).toEqual(['/assets/de-de-first-login.js', '/assets/login-1.js']);
    expect(res.body).toContain('<title>Anmelden | Front Door</title>');
  });

  it("the visitor's chosen language (the switcher's cookie) first", async () => {
    expect(factsOf((await get('/login', { 'accept-language': 'de-DE', cookie: 'fd-language=en-us' })).body).lang).toBe('en-us');
  });

  it("a branded host's logo and name in the slots, escaped as attribute values", async () => {
    const res = await get('/login', { host: 'branded.localhost:8080' });
    expect(rootOf(res.body)).toBe('<img src="/branding/assets/acme-logo.svg" alt="Acme IT">');
    expect(res.body).toContain('data-theme="theme-four"');
  });

  it('a query parameter the screen reads, or an unknown path: the loading card, drawn by the app (all texts)', async () => {
    for (const url of ['/login?state=abc', '/no/such/page']) {
      const res = await get(url);
      expect(rootOf(res.body), url).toBe('<p>en-us login loading</p>');
      expect(factsOf(res.body).hydrate, url).toBeUndefined();
      // The app draws the page with all texts: the language's loader module and its one chunk of all.
      expect(
        preloads(res.body).filter((file) => file?.startsWith('/assets/en-us-')),
        url,
      ).toEqual(['/assets/en-us-index.js', '/assets/en-us-all.js']);
    }
    // Parameters the page does not read change nothing.
    expect(factsOf((await get('/login?return_to=%2Fapp%2F&utm_source=x')).body).hydrate).toBe(true);
  });

  it('an optional route parameter that changes the first state (a reset link): the loading card, the page without it as written', async () => {
    expect(rootOf((await get('/resetPassword')).body)).toBe('<p>en-us reset request</p>');
    expect(factsOf((await get('/resetPassword')).body).hydrate).toBe(true);
    for (const url of ['/resetPassword/DEMO-RESET-CODE', '/resetPassword/a%20b']) {
      const res = await get(url);
      expect(rootOf(res.body), url).toBe('<p>en-us reset loading</p>');
      expect(factsOf(res.body).hydrate, url).toBeUndefined();
    }
  });

  it("a page that shows the browser's language is sent only to a browser whose language is the page's", async () => {
    expect(rootOf((await get('/register', { 'accept-language': 'de-DE' })).body)).toBe('<p>de-de register</p>');
    const chosen = await get('/register', { 'accept-language': 'de-DE', cookie: 'fd-language=en-us' });
    expect(rootOf(chosen.body)).toBe('<p>en-us register loading</p>');
  });

  it('a switched-off host: the not-available card, hydrated (the app shows the same)', async () => {
    const res = await get('/register', { host: 'closed.localhost:8080' });
    expect(rootOf(res.body)).toBe('<p>en-us closed</p>');
    expect(factsOf(res.body).hydrate).toBe(true);
  });

  it('varies by what picks it, and stays without inline script', async () => {
    const res = await get('/login');
    expect(String(res.headers.vary)).toMatch(/Accept-Language/i);
    expect(String(res.headers.vary)).toMatch(/Cookie/i);
    expect(res.body.match(/<script\b[^>]*>/g)).toEqual([
      '<script type="module" crossorigin src="/assets/index-abc.js">',
      '<script type="module" async src="/assets/early-1.js">',
    ]);
  });
});

describe('page keys and slots', () => {
  it('reads the site facts as the app does', () => {
    expect(siteFacts({ config: { environment: 'production', selfRegistrationEnabled: false }, branding: { isEnabled: true, browserName: 'X' } })).toEqual({
      production: '1',
      selfRegistration: '0',
      brand: 'named',
    });
    expect(siteFacts({ config: {}, branding: { loginLogo: '/l.svg' } }).brand).toBe('logo');
  });

  it('fills every slot, escaping what comes from the branding table', () => {
    const html = `<img src="${PAGE_SLOTS.logo}" alt="${PAGE_SLOTS.brandName}"><span>${PAGE_SLOTS.year}</span>`;
    expect(fillSlots(html, { year: 2031, brandName: '"><script>x</script>', logo: '/a.svg?x=1&y="2"' })).toBe(
      '<img src="/a.svg?x=1&amp;y=&quot;2&quot;" alt="&quot;&gt;&lt;script&gt;x&lt;/script&gt;"><span>2031</span>',
    );
  });
});
