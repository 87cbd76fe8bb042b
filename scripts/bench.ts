import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { extname, join, resolve } from 'node:path';
import { brotliCompressSync, constants } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { chromium, type Browser } from 'playwright-core';
import { build } from 'vite';
import { buildApp } from '../server/app';
import { CHROMIUM_ARGS, findChromium } from '../tooling/browser';
import { ensureBuilt } from './ensure-build';
import { cliOptions } from './cli-args';
import { FAST_3G, throttle, typingLatency, type Keystroke } from './bench/measures';
import { inlineStyleBytes, scriptAndStyleBytes, watchNetwork } from './bench/network';
import { printLoads, printTyping, summariseLoads, summariseTyping, type Load } from './bench/report';
import { printPageBudgets } from './bench/budgets';

/**
 * `npm run bench` (builds first when dist/app is missing): page-load and typing figures in Chromium, printed as a
 * table and written to build/bench.json. A script, not a test: timings vary from machine to machine.
 *
 * 1. Page load, cold cache, CPU 4x slowdown and DevTools' Fast 3G (562.5 ms RTT, 1.44 Mbit/s down,
 *    675 kbit/s up) via CDP, median of --runs (default 5), the pages interleaved run by run:
 *    - /login (the prerendered page the app hydrates), and /register;
 *    - plain HTML form: the same /login page (its CSS inline, as /login's) with its scripts, modulepreloads
 *      and page facts taken out, served by the same server (the floor: a form is usable as soon as HTML is);
 *    - bare React form: React 19 and one controlled form, rendered on the client
 *      (scripts/bench/bare-react, built with vite and served brotli-compressed in the same session);
 *    - with --baseline <dir>: /login of another build (a checkout built with npm run build, its own
 *      server started here), e.g. the code before a change.
 *    Per page: FCP; usable (the first moment a form has a visible, enabled text field and an enabled
 *    submit button, polled every frame, and not before the first contentful paint: nothing is on screen
 *    before it); live (the app has taken the form over: hydrated); TTI (the later of usable and live, or
 *    the end of the last long task before 2 s without one); the longest task from navigation to TTI;
 *    TBT after FCP; bytes transferred. Then each run's ratios (median and spread).
 * 2. Typing in the largest form (register's first step, else login's), one key every 120 ms, CPU 4x,
 *    --keys keys (default 40) per pass, --typing-passes passes (default 2): p50/p95 of key -> paint
 *    (Chrome's Event Timing duration, what INP measures) and of the script time per key (its event
 *    handlers with React's render of the typed value). The same keys in the bare React form and in a
 *    plain HTML input (no script) are this machine's floors.
 *
 *   npx tsx scripts/bench.ts [--runs 5] [--keys 40] [--typing-passes 2] [--cpu 4] [--typing | --loads] [--baseline <dir>] [--waterfall]
 *   (--typing: the typing figures only, about a minute; --loads: the page loads only; --waterfall: each
 *   page's first load, request by request; the loads are checked against scripts/bench/budgets.json)
 */

const options = cliOptions({ numbers: { runs: 5, keys: 40, cpu: 4, 'typing-passes': 2 }, strings: { baseline: '' }, flags: ['typing', 'loads', 'waterfall'] });
const RUNS = Math.min(options.runs, 25);
const KEYS = Math.min(options.keys, 200);
const CPU = options.cpu;
/** Typing passes per subject (each --keys keys), interleaved. */
const TYPING_PASSES = options.loads ? 0 : Math.min(options['typing-passes'], 10);
/** --typing: skip the page loads (the typing figures alone take about a minute). */
const TYPING_ONLY = options.typing;
const BARE_DIR = resolve('build/bench/bare-react');

/** Observers registered before any page script: long tasks and LCP are not buffered otherwise. */
const OBSERVE = `
  window.__bench = { longTasks: [], lcp: 0 };
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.longTasks.push([e.startTime, e.duration]); })
    .observe({ type: 'longtask', buffered: true });
  new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__bench.lcp = e.startTime; })
    .observe({ type: 'largest-contentful-paint', buffered: true });
`;

/** --waterfall: the requests of each page's first load, until the network was quiet (printed after the table). */
const waterfalls = new Map<string, string[]>();

async function pageLoad(browser: Browser, url: string): Promise<Load> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.addInitScript(OBSERVE);
  const cdp = await throttle(page, CPU, true);
  const network = watchNetwork(cdp);
  let transferred = 0;
  cdp.on('Network.loadingFinished', (event: { encodedDataLength: number }) => {
    transferred += event.encodedDataLength;
  });
  await page.goto(url, { waitUntil: 'commit', timeout: 120_000 });
  // Polled on every frame in the page, so the time is when the form became usable there.
  const usableAt = await page.waitForFunction(
    () => {
      // (No named function inside: tsx would wrap it in a helper the page does not have.)
      const field = document.querySelector<HTMLInputElement>('form input:not([type=hidden]):not([type=checkbox]):not([disabled])');
      const submit = document.querySelector<HTMLButtonElement>('form [type=submit]:not([disabled])');
      const shown = [field, submit].every((element) => element !== null && element.getBoundingClientRect().height > 0);
      return shown ? performance.now() : false;
    },
    undefined,
    { polling: 'raf', timeout: 120_000 },
  );
  // A form is usable once it is on screen: not before the first paint. (The check forces a layout, so
  // it can pass while a render-blocking stylesheet still holds every paint back.)
  const fcpAt = () => page.evaluate(() => performance.getEntriesByName('first-contentful-paint')[0]?.startTime);
  let firstPaint = await fcpAt();
  for (let tries = 0; firstPaint === undefined && tries < 600; tries += 1) firstPaint = await page.waitForTimeout(50).then(fcpAt);
  const usable = Math.max(Number(await usableAt.jsonValue()), firstPaint ?? 0);
  // The app's page is live once its form is the app's (src/engine/form/early-input.ts marks it); the
  // bare React form is live when it shows; a page without scripts never runs any.
  const hasApp = await page.evaluate(
    () => document.querySelector('script[type=module]') !== null && document.getElementById('root')?.dataset.page !== undefined,
  );
  const liveAt = hasApp
    ? await page.waitForFunction(() => (document.querySelector('form')?.dataset.fdLive !== undefined ? performance.now() : false), undefined, {
        polling: 'raf',
        timeout: 120_000,
      })
    : undefined;
  const live = liveAt ? Number(await liveAt.jsonValue()) : usable;
  // Quiet: 2 s without a long task (lazy chunks, probes and the rest loading after the page is live).
  await page.waitForFunction(
    () => {
      const bench = (window as unknown as { __bench: { longTasks: Array<[number, number]> } }).__bench;
      const last = bench.longTasks.reduce((end, [start, duration]) => Math.max(end, start + duration), 0);
      return performance.now() - last > 2000;
    },
    undefined,
    { polling: 200, timeout: 120_000 },
  );
  await network.quiet(page);
  const { requests, quietAt } = network.summary();
  if (options.waterfall && !waterfalls.has(url)) waterfalls.set(url, network.waterfall());
  const inline = inlineStyleBytes(
    await page.evaluate(() => [...document.querySelectorAll('style')].map((style) => `<style>${style.textContent}</style>`).join('')),
  );
  const assets = await scriptAndStyleBytes(page, live);
  const result = await page.evaluate(
    ({ usable, live }) => {
      const bench = (window as unknown as { __bench: { longTasks: Array<[number, number]>; lcp: number } }).__bench;
      const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0;
      const ready = Math.max(usable, live);
      const before = bench.longTasks.filter(([start]) => start <= ready + 2000);
      const tti = Math.max(ready, ...before.map(([start, duration]) => start + duration));
      const upToTti = bench.longTasks.filter(([start]) => start <= tti);
      const tbt = upToTti.filter(([start]) => start >= fcp).reduce((sum, [, duration]) => sum + Math.max(0, duration - 50), 0);
      return { fcp, lcp: bench.lcp, tti, tbt, longest: Math.max(0, ...upToTti.map(([, duration]) => duration)) };
    },
    { usable, live },
  );
  await context.close();
  return { ...result, usable, live, transferred, requests, quiet: quietAt, byLoad: assets.byLoad + inline, byLive: assets.byLive + inline };
}

/** The bare page, served like the app's assets: brotli q11 when accepted, hashed files immutable. */
async function serveBare(): Promise<{ server: Server; base: string }> {
  const types: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };
  const cache = new Map<string, Buffer>();
  const server = createServer((req, res) => {
    const urlPath = (req.url ?? '/').split('?')[0] ?? '/';
    const file = join(BARE_DIR, urlPath === '/' ? 'index.html' : urlPath);
    if (!file.startsWith(BARE_DIR) || !existsSync(file) || !statSync(file).isFile()) {
      res.writeHead(404).end();
      return;
    }
    let body = cache.get(file);
    if (!body) {
      body = brotliCompressSync(readFileSync(file), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      cache.set(file, body);
    }
    res.writeHead(200, {
      'Content-Type': types[extname(file)] ?? 'application/octet-stream',
      'Content-Encoding': 'br',
      'Cache-Control': file.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
    res.end(body);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return { server, base: `http://127.0.0.1:${(server.address() as { port: number }).port}` };
}

/** Another build's server (a checkout's dist/server and dist/app) on a free port, with a fresh demo tenant. */
async function startBaseline(dir: string): Promise<{ base: string; stop(): void }> {
  const main = join(dir, 'dist/server/main.js');
  if (!existsSync(main)) throw new Error(`--baseline ${dir}: no ${main} (build that checkout with npm run build first)`);
  const port = await new Promise<number>((done) => {
    const probe = createServer();
    probe.listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => done(free));
    });
  });
  const child = spawn(process.execPath, [main, '--demo'], {
    cwd: dir,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', DB_PATH: ':memory:', NODE_ENV: 'test', DEV_TOOLS: '1', LOG_LEVEL: 'warn' },
    stdio: 'ignore',
  });
  const base = `http://localhost:${port}`;
  for (let i = 0; i < 120; i += 1) {
    if (
      await fetch(`${base}/healthz`).then(
        (response) => response.ok,
        () => false,
      )
    )
      return { base, stop: () => child.kill() };
    await new Promise((done) => setTimeout(done, 500));
  }
  child.kill();
  throw new Error(`--baseline ${dir}: its server did not answer on ${base}`);
}

/** What the bench compares: our server (a copy of the build), the bare React form, another build's server (--baseline), and a browser. */
async function subjects() {
  ensureBuilt('bench');
  await build({
    root: resolve('scripts/bench/bare-react'),
    configFile: false,
    logLevel: 'warn',
    plugins: [react()],
    build: { outDir: BARE_DIR, emptyOutDir: true, target: 'es2022', modulePreload: { polyfill: false } },
  });
  // The typing floor of the browser itself: one labelled input and no script at all.
  writeFileSync(
    join(BARE_DIR, 'plain.html'),
    '<!doctype html><html lang="en"><title>Plain form</title><form><label for="email">Email</label><input id="email" type="email"></form></html>',
  );
  // A copy of the build: a rebuild during the run (a shared work tree) must not swap the files.
  const appDir = resolve('build/bench/app');
  rmSync(appDir, { recursive: true, force: true });
  cpSync('dist/app', appDir, { recursive: true });
  const app = await buildApp({ dbPath: ':memory:', nodeEnv: 'test', devTools: true, rateLimit: false, pageRateLimit: false, logger: false, staticDir: appDir });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://localhost:${(app.server.address() as { port: number }).port}`;
  const bare = await serveBare();
  const browser = await chromium.launch({ executablePath: findChromium(() => undefined), args: CHROMIUM_ARGS });
  // The floor: the same /login page with its scripts taken out, served by the same server (a root
  // file of the build, with its brotli sibling, as the server sends those).
  const login = await fetch(`${base}/login`, { headers: { Accept: 'text/html', 'Accept-Language': 'en-US' } }).then((response) => response.text());
  const plainForm = login
    .replace(/\s*<script type="module"[^>]*><\/script>/g, '')
    .replace(/\s*<link rel="modulepreload"[^>]*>/g, '')
    .replace(/ data-page="[^"]*"/, '');
  writeFileSync(join(appDir, 'bench-plain-form.html'), plainForm);
  writeFileSync(join(appDir, 'bench-plain-form.html.br'), brotliCompressSync(plainForm, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
  // Another build's /login (--baseline <dir>: a checkout built with npm run build), on its own server.
  const baseline = options.baseline ? await startBaseline(resolve(options.baseline)) : undefined;
  const close = async () => {
    await browser.close();
    await app.close();
    await new Promise((done) => bare.server.close(done));
    baseline?.stop();
  };
  return { base, bare, baseline, browser, close };
}

type Subjects = Awaited<ReturnType<typeof subjects>>;

/** Cold loads of each page, interleaved, so a slow moment of the machine hits every page alike. */
async function measureLoads({ base, bare, baseline, browser }: Subjects): Promise<Record<string, Load[]>> {
  const pages: Array<[string, string]> = [
    ['/login', `${base}/login`],
    ['/register', `${base}/register`],
    ...(baseline ? [['/login before', `${baseline.base}/login`] as [string, string]] : []),
    ['plain HTML form', `${base}/bench-plain-form.html`],
    ['bare React', `${bare.base}/`],
  ];
  const loads: Record<string, Load[]> = {};
  for (let run = 0; run < (TYPING_ONLY ? 0 : RUNS); run += 1) {
    for (const [name, url] of pages) {
      (loads[name] ??= []).push(await pageLoad(browser, url));
      process.stdout.write('.');
    }
  }
  process.stdout.write('\n');
  return loads;
}

/** The page whose typing is measured: /register when its form shows (isVisible() does not wait: the screen renders after load), else /login. */
async function typingPageOf({ base, browser }: Subjects): Promise<string> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(`${base}/register`);
  const found = await page
    .locator('form input[type=text], form input:not([type])')
    .first()
    .waitFor({ state: 'visible', timeout: 10_000 })
    .then(
      () => true,
      () => false,
    );
  await context.close();
  return found ? '/register' : '/login';
}

/** Keystrokes on our page against two floors of this machine: the bare React form and a page with no script at all. Interleaved, like the loads. */
async function measureTyping({ base, bare, browser }: Subjects, typingPage: string): Promise<Record<string, Keystroke[]>> {
  const field = 'form input[type=text], form input[type=email], form input:not([type])';
  const typingSubjects: Array<[string, string]> = [
    [typingPage, `${base}${typingPage}`],
    ['bare React', `${bare.base}/`],
    ['plain HTML', `${bare.base}/plain.html`],
  ];
  const typing: Record<string, Keystroke[]> = {};
  for (let pass = 0; pass < TYPING_PASSES; pass += 1) {
    for (const [name, url] of typingSubjects) {
      (typing[name] ??= []).push(...(await typingLatency(browser, url, field, CPU, KEYS)));
      process.stdout.write('.');
    }
  }
  process.stdout.write('\n');
  return typing;
}

async function main(): Promise<void> {
  const subject = await subjects();
  try {
    const loads = await measureLoads(subject);
    const typingPage = TYPING_PASSES === 0 ? '/login' : await typingPageOf(subject);
    const typing = await measureTyping(subject, typingPage);
    const loadSummary = summariseLoads(loads);
    if (!TYPING_ONLY) printLoads(loads, loadSummary, { runs: RUNS, cpu: CPU });
    if (!TYPING_ONLY) printPageBudgets(loadSummary.summary);
    for (const [url, lines] of waterfalls)
      console.log(`\nRequests of the first load of ${url} (start ms, end ms, bytes on the wire, initiator, path):\n${lines.join('\n')}`);
    const conditions = { runs: RUNS, cpuSlowdown: CPU, network: 'Fast 3G', ...FAST_3G };
    const date = new Date().toISOString();
    mkdirSync('build', { recursive: true });
    if (TYPING_PASSES === 0) {
      writeFileSync('build/bench.json', JSON.stringify({ date, conditions, pageLoad: loadSummary.summary, runs: loads }, null, 2));
      console.log('Report: build/bench.json (page loads only: --loads)');
      return;
    }
    const typingSummary = summariseTyping(typing);
    printTyping(typingSummary, typingPage, CPU);
    const ratios = Object.fromEntries(Object.entries(loadSummary.summary).map(([name, load]) => [name, loadSummary.ratios(load)]));
    const report = {
      date,
      conditions,
      pageLoad: loadSummary.summary,
      ratios,
      typing: { page: typingPage, cpuSlowdown: CPU, summary: typingSummary, samples: typing },
      runs: loads,
    };
    writeFileSync('build/bench.json', JSON.stringify(report, null, 2));
    console.log('Report: build/bench.json');
  } finally {
    await subject.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
