import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { axeViolations, COLOUR_RULES } from './axe';
import { freshDemoTenantForEachTest } from './helpers';
import { leave, servePseudoLocale, setScheme, setTheme, settle, shot, slug, stateKey, THEMES, visits, whereAmI, type Visit } from './screen-states';

/**
 * Every screen state in every theme and in the grid's languages, and visual regression with a small
 * tolerance. Two modes:
 * - `npm run screenshots` (scripts/screenshots.ts sets SCREENSHOTS=1, SCREENSHOT_WIDTHS=1280,375 and
 *   SCREENSHOT_AXE=1): the picture grid. Every state x theme x light/dark at both widths as PNGs under
 *   build/screenshots with an index.html grid, axe on every picture, each theme's picture differing
 *   from the default theme's; every state in Arabic, Hebrew and the pseudo-locale, light and dark, at
 *   both widths (languages.html), lang and dir checked, axe in Arabic and Hebrew, nothing scrolling
 *   sideways in the pseudo-locale.
 * - `npm test` (no SCREENSHOTS): the same checks, each once, without pictures. Every state in every
 *   theme, light and dark, must look different from the default theme: compared by the computed
 *   styles of every visible element (colours, borders, shadows, fonts), which cost no screenshot, on
 *   the accessibility walk of tests/e2e/a11y.spec.ts (it opens every state in English anyway; the
 *   grid's test below runs only with SCREENSHOTS). Here: Arabic, every state right to left with lang
 *   and dir, and axe (every rule) once per state, at 1280 px, light. The pseudo-locale's walk (every
 *   state at 375 px, where a text 40 % longer is likeliest not to fit, must not scroll sideways, and
 *   no text of ours outside the locale files) is tests/e2e/branding.spec.ts. Hebrew (the same
 *   right-to-left code as Arabic; its pages are checked in tests/e2e/rtl.spec.ts) and the pictures
 *   stay in `npm run screenshots`. Axe on every state in two themes and both schemes is
 *   tests/e2e/a11y.spec.ts.
 *
 * No checked-in baselines: font rasterising differs between machines (fonts installed, hinting,
 * Chromium version), so pixel baselines from one machine fail on the next. Each comparison is
 * made against a reference rendered in the same run instead: a theme switched live must look
 * like a fresh load in that theme; a language switched and switched back must leave no trace;
 * every theme must visibly change every screen. See docs/design.md.
 */
const PICTURES = process.env.SCREENSHOTS === '1';
const WIDTHS = PICTURES
  ? (process.env.SCREENSHOT_WIDTHS ?? '1280,375')
      .split(',')
      .map(Number)
      .filter((width) => width >= 320)
  : [1280];
const AXE = PICTURES && process.env.SCREENSHOT_AXE !== '0';
const OUT = 'build/screenshots';
const SCHEMES = ['light', 'dark'] as const;
/** Share of pixels allowed to differ between two renders that should be the same. */
const TOLERANCE = 0.002;
/** A channel difference below this is anti-aliasing noise, not a change. */
const CHANNEL_THRESHOLD = 24;

/** Share of pixels that differ (1 when the sizes differ), computed in a blank page's canvas. */
async function diffRatio(context: BrowserContext, a: Buffer, b: Buffer): Promise<number> {
  const canvasPage = await context.newPage();
  try {
    return await canvasPage.evaluate(
      async ({ a64, b64, threshold }) => {
        const load = async (b64s: string) => {
          const bytes = Uint8Array.from(atob(b64s), (c) => c.charCodeAt(0));
          const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
          const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
          const ctx = canvas.getContext('2d');
          if (!ctx) throw new Error('no 2d context');
          ctx.drawImage(bitmap, 0, 0);
          return ctx.getImageData(0, 0, bitmap.width, bitmap.height);
        };
        const [x, y] = [await load(a64), await load(b64)];
        if (x.width !== y.width || x.height !== y.height) return 1;
        let differing = 0;
        for (let i = 0; i < x.data.length; i += 4) {
          for (let c = 0; c < 3; c += 1) {
            if (Math.abs((x.data[i + c] ?? 0) - (y.data[i + c] ?? 0)) > threshold) {
              differing += 1;
              break;
            }
          }
        }
        return differing / (x.width * x.height);
      },
      { a64: a.toString('base64'), b64: b.toString('base64'), threshold: CHANNEL_THRESHOLD },
    );
  } finally {
    await canvasPage.close();
  }
}

type Violation = Awaited<ReturnType<typeof axeViolations>>[number];
/** An axe violation as a line: the rule and its first three places. */
const finding = (v: Violation) =>
  `${v.id} (${v.nodes
    .map((n) => n.target.join(' '))
    .slice(0, 3)
    .join(', ')})`;

/**
 * Opens a visit at a width and lets it settle; where it is and the folder of its pictures (made when
 * pictures are taken), or undefined, the page left, when another visit showed the same state.
 */
async function openNewState(
  page: Page,
  context: BrowserContext,
  visit: Visit,
  seen: Set<string>,
  width = 1280,
): Promise<{ where: string; folder: string } | undefined> {
  await page.setViewportSize({ width, height: 720 });
  await visit.open(page, context);
  await settle(page, visit);
  const where = await whereAmI(page);
  const key = stateKey(page, visit, where);
  if (!key || seen.has(key)) {
    await leave(page, visit);
    return undefined;
  }
  seen.add(key);
  const folder = slug(`${where} ${visit.name}`);
  if (PICTURES) mkdirSync(join(OUT, folder), { recursive: true });
  return { where, folder };
}

const shotName = (theme: string, scheme: string, width: number) => `${width}-${scheme}-${theme}.png`;

/** The grid page: per width and scheme a table, one row per state, one column per theme. */
function gridPage(rows: Array<{ state: string; where: string; dir: string }>): string {
  const tables = WIDTHS.flatMap((width) =>
    SCHEMES.map((scheme) =>
      [
        `<h2 id="w${width}-${scheme}">${width} px, ${scheme}</h2>`,
        `<table><tr><th>state</th>${THEMES.map((t) => `<th>${t}</th>`).join('')}</tr>`,
        ...rows.map((r) => {
          const cells = THEMES.map((t) => {
            const file = `${r.dir}/${shotName(t, scheme, width)}`;
            return `<td><a href="${file}"><img loading="lazy" src="${file}" alt="${r.state}, ${t}, ${scheme}, ${width} px"></a></td>`;
          });
          return `<tr><th>${r.state}<br><small>${r.where}</small></th>${cells.join('')}</tr>`;
        }),
        '</table>',
      ].join('\n'),
    ),
  );
  const nav = WIDTHS.flatMap((width) => SCHEMES.map((scheme) => `<a href="#w${width}-${scheme}">${width} px ${scheme}</a>`)).join(' · ');
  return [
    '<!doctype html><meta charset="utf-8"><title>Front Door screenshot grid</title>',
    '<style>body{font:14px system-ui;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}img{width:200px}</style>',
    `<p>${nav} · <a href="languages.html">Arabic, Hebrew and the pseudo-locale</a></p>`,
    ...tables,
  ].join('\n');
}

// The tests of this file are long and independent: each on its own worker when there are several
// (scripts/e2e.ts starts a server per worker), so they end together.
test.describe.configure({ mode: 'parallel' });

test.describe('visual', () => {
  // The grid signs in as the demo accounts: from the demo tenant as it starts.
  freshDemoTenantForEachTest();

  // In `npm test` the themes are compared on the accessibility walk (tests/e2e/a11y.spec.ts), which
  // opens every state anyway: by computed styles, without pictures (see the top of this file).
  const title = 'screenshot grid: every screen state in every theme, light and dark, each theme visibly applied';
  if (PICTURES)
    test(title, async ({ page, context }) => {
      test.setTimeout(WIDTHS.length * (AXE ? 2_400_000 : 600_000));
      mkdirSync(OUT, { recursive: true });
      const rows: Array<{ state: string; where: string; dir: string }> = [];
      const unthemed: string[] = [];
      const violations: string[] = [];
      let axeRuns = 0;
      const seen = new Set<string>();
      for (const visit of visits()) {
        const state = await openNewState(page, context, visit, seen, WIDTHS[0]);
        if (!state) continue;
        const { where, folder: dir } = state;
        for (const width of WIDTHS) {
          await page.setViewportSize({ width, height: 720 });
          for (const scheme of SCHEMES) {
            await setScheme(page, scheme);
            const looks: Buffer[] = [];
            for (const theme of THEMES) {
              await setTheme(page, theme);
              const seenAs = await shot(page);
              writeFileSync(join(OUT, dir, shotName(theme, scheme, width)), seenAs);
              looks.push(seenAs);
              if (AXE) {
                // Colours change with theme and scheme; the rest only with the width.
                const found = await axeViolations(page, theme === THEMES[0] && scheme === 'light' ? undefined : COLOUR_RULES);
                axeRuns += 1;
                violations.push(...found.map((v) => `${visit.name} [${theme} ${scheme} ${width}]: ${finding(v)}`));
              }
            }
            for (let i = 1; i < looks.length; i += 1) {
              const [first, other] = [looks[0], looks[i]];
              if (first && other && first.equals(other)) unthemed.push(`${visit.name} (${scheme}, ${width} px): ${THEMES[i]} looks like ${THEMES[0]}`);
            }
          }
        }
        await setScheme(page, 'light');
        await setTheme(page, THEMES[0]);
        await leave(page, visit);
        rows.push({ state: visit.name, where, dir });
      }
      const looks = rows.length * THEMES.length * SCHEMES.length * WIDTHS.length;
      writeFileSync(join(OUT, 'index.html'), gridPage(rows));
      console.log(
        `screenshots: ${rows.length} states x ${THEMES.length} themes x ${SCHEMES.length} schemes x ${WIDTHS.join('/')} px = ${looks} PNGs in ${OUT}`,
      );
      if (AXE) console.log(`axe: ${axeRuns} runs, ${violations.length} violation(s)`);
      expect(rows.length).toBeGreaterThan(25);
      expect(unthemed).toEqual([]);
      expect(violations).toEqual([]);
    });

  test('a theme switched live looks like a fresh load in that theme', async ({ page, context }) => {
    test.setTimeout(180_000);
    for (const theme of THEMES.slice(1)) {
      await page.goto(`/login?theme=${theme}`);
      await settle(page);
      const fresh = await shot(page);
      await page.goto('/login?theme=theme-ninja-blue');
      await settle(page);
      await page.getByLabel('Theme').selectOption(theme);
      await expect(page.locator('html')).toHaveAttribute('data-theme', theme);
      const live = await shot(page);
      expect(await diffRatio(context, fresh, live), theme).toBeLessThanOrEqual(TOLERANCE);
    }
  });

  test('switching language and back leaves no trace; another language visibly differs', async ({ page, context }) => {
    await page.goto('/login');
    await settle(page);
    const before = await shot(page);
    await page.getByLabel('Language').selectOption('de-de');
    await expect(page.getByRole('button', { name: 'Anmelden', exact: true })).toBeVisible();
    const german = await shot(page);
    await page.getByLabel('Sprache').selectOption('en-us');
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    const after = await shot(page);
    expect(await diffRatio(context, before, after)).toBeLessThanOrEqual(TOLERANCE);
    expect(await diffRatio(context, before, german)).toBeGreaterThan(0.005);
  });
});

/**
 * The grid's languages (build/screenshots/languages.html, beside the themes' grid): every screen state
 * in Arabic and Hebrew (right to left) and in the pseudo-locale (accented, about 40 % longer). On every
 * state: the page's lang and dir are the language's; in Arabic and Hebrew axe (WCAG 2.2 AA, every rule)
 * finds nothing; in the pseudo-locale nothing scrolls sideways (a text that does not fit). The
 * languages are reached as a visitor reaches them: Arabic and Hebrew as the browser's language
 * (Accept-Language and navigator.languages, so the server's static page is right to left too), the
 * pseudo-locale served in place of en-us. `npm run screenshots` renders each in the default theme,
 * light and dark, at the grid's widths; `npm test` checks Arabic and the pseudo-locale, each at one
 * width, without pictures (see the top of this file).
 */

interface Language {
  code: string;
  /** The browser's language (Playwright's locale). */
  locale: string;
  lang: string;
  dir: 'ltr' | 'rtl';
  axe: boolean;
  /** The width `npm test` checks it at; none: only in `npm run screenshots`. */
  checkedAt?: number;
}
const LANGUAGES: Language[] = [
  { code: 'ar', locale: 'ar', lang: 'ar', dir: 'rtl', axe: true, checkedAt: 1280 },
  { code: 'he', locale: 'he-IL', lang: 'he', dir: 'rtl', axe: true },
  // In `npm test` the pseudo-locale's pass is branding.spec's (every state at 375 px: no text of ours outside the locale files, nothing too wide).
  { code: 'en-xa', locale: 'en-US', lang: 'en-US', dir: 'ltr', axe: false },
];

interface Row {
  state: string;
  where: string;
  dir: string;
}

/** Each language's rows, one file per language (its pass may run on another worker), for languages.html. */
const rowsFile = (code: string) => join(OUT, `languages-${code}.json`);

function languagesPage(): string {
  const written = LANGUAGES.filter(({ code }) => existsSync(rowsFile(code))).map(
    ({ code }) => [code, JSON.parse(readFileSync(rowsFile(code), 'utf8')) as Row[]] as const,
  );
  const sections = written.flatMap(([code, rows]) =>
    WIDTHS.map((width) =>
      [
        `<h2 id="${code}-${width}">${code}, ${width} px</h2>`,
        `<table><tr><th>state</th>${SCHEMES.map((s) => `<th>${s}</th>`).join('')}</tr>`,
        ...rows.map((r) => {
          const cells = SCHEMES.map((scheme) => {
            const file = `${r.dir}/${width}-${scheme}-${code}.png`;
            return `<td><a href="${file}"><img loading="lazy" src="${file}" alt="${r.state}, ${code}, ${scheme}, ${width} px"></a></td>`;
          });
          return `<tr><th>${r.state}<br><small>${r.where}</small></th>${cells.join('')}</tr>`;
        }),
        '</table>',
      ].join('\n'),
    ),
  );
  const nav = written.flatMap(([code]) => WIDTHS.map((width) => `<a href="#${code}-${width}">${code} ${width} px</a>`)).join(' · ');
  return [
    '<!doctype html><meta charset="utf-8"><title>Front Door screenshot grid: languages</title>',
    '<style>body{font:14px system-ui;margin:16px}table{border-collapse:collapse}td,th{border:1px solid #ccc;padding:4px;vertical-align:top}img{width:240px}</style>',
    `<p><a href="index.html">Themes</a> · ${nav}</p>`,
    ...sections,
  ].join('\n');
}

async function axeFindings(page: Page): Promise<string[]> {
  return (await axeViolations(page)).map(finding);
}

for (const language of LANGUAGES.filter((l) => PICTURES || l.checkedAt)) {
  const widths = PICTURES ? WIDTHS : [language.checkedAt ?? 1280];
  // Without pictures the scheme changes nothing checked here (lang, dir, axe's full run, the width).
  const schemes = PICTURES ? SCHEMES : (['light'] as const);
  test.describe(`languages: ${language.code}`, () => {
    test.use({ locale: language.locale });
    // Each pass signs in and sends texts as the others do: a fresh tenant, so no budget is spent before it.
    freshDemoTenantForEachTest();

    const checks = `${language.dir}${language.axe ? ', axe clean' : ', nothing too wide'}`;
    test(
      PICTURES
        ? `screenshot grid in ${language.code}: every screen state, light and dark, ${checks}`
        : `every screen state in ${language.code} at ${widths.join('/')} px: ${checks}`,
      async ({ page, context }) => {
        test.setTimeout(widths.length * 600_000);
        if (language.code === 'en-xa') await servePseudoLocale(context);
        const rows: Row[] = [];
        const problems: string[] = [];
        const seen = new Set<string>();
        for (const visit of visits()) {
          try {
            const state = await openNewState(page, context, visit, seen, widths[0]);
            if (!state) continue;
            const { where, folder } = state;
            const html = page.locator('html');
            const [lang, dir] = [await html.getAttribute('lang'), await html.getAttribute('dir')];
            if (lang !== language.lang || (dir ?? 'ltr') !== language.dir) problems.push(`${visit.name}: lang="${lang}" dir="${dir}"`);
            for (const [w, width] of widths.entries()) {
              await page.setViewportSize({ width, height: 720 });
              if (language.code === 'en-xa' && (await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth)))
                problems.push(`${visit.name}: scrolls sideways at ${width} px`);
              for (const scheme of schemes) {
                await setScheme(page, scheme);
                if (PICTURES) writeFileSync(join(OUT, folder, `${width}-${scheme}-${language.code}.png`), await shot(page));
                // Every rule once per state; the colours are the other languages' (the accessibility spec checks them in every theme and scheme).
                if (language.axe && w === 0 && scheme === 'light') problems.push(...(await axeFindings(page)).map((f) => `${visit.name} [${width}]: ${f}`));
              }
            }
            await setScheme(page, 'light');
            await leave(page, visit);
            rows.push({ state: visit.name, where, dir: folder });
          } catch (error) {
            // One broken state must not hide the others.
            problems.push(`${visit.name}: could not be checked: ${(error as Error).message.split('\n')[0]}`);
          }
        }
        if (PICTURES) {
          mkdirSync(OUT, { recursive: true });
          writeFileSync(rowsFile(language.code), JSON.stringify(rows));
          writeFileSync(join(OUT, 'languages.html'), languagesPage());
        }
        console.log(`${PICTURES ? 'screenshots' : 'checked'} (${language.code}): ${rows.length} states x ${schemes.length} scheme(s) x ${widths.join('/')} px`);
        expect(rows.length).toBeGreaterThan(25);
        expect(problems).toEqual([]);
      },
    );
  });
}
