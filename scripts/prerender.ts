import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';
import { samplePath, routeParams } from '../catalogue/language/routes';
import { DEFAULT_THEME } from '../src/app/themes';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '../src/app/languages';
import { EXPIRED_TRIAL_COOKIE } from '../src/app/cookies';
import { PAGE_SLOTS, pageKey, type PagesManifest, type PageVariant, type SiteAnswers, type SiteDimension } from '../server/spa/pages';
import type { PlainForm, PlainForms } from '../server/spa/forms';
import { DEFAULT_LANDING, END_USER_LANDING } from '../src/app/return-to';
import { activeSubmit, submitsOf } from '../catalogue/language/outcomes';
import type { Outcome, ScreenFile, SharedOutcomes } from '../catalogue/language/types';

/**
 * The build's prerendering (issue 27): every route's first state as HTML, in every language, from the
 * app itself (src/prerender.tsx, built here for Node by vite with the browser build's plugins), so
 * the server's page shows a working form before any script and the browser hydrates it.
 *
 * What a page depends on is found by rendering it, not declared: in English, each site fact
 * (production, self-registration, a branded host with or without a logo) is flipped, the route's
 * parameters, the page's origin and the browser's languages are varied, and each query parameter a
 * screen could read is added; a fact that changes the markup makes page variants, a parameter, origin
 * or query that does makes the page unsafe to hydrate under it (the server then sends the route's
 * loading page, also prerendered here, and the browser renders the screen itself). Each page is
 * rendered for a browser whose language is the page's; one that shows it (a form's default) is sent
 * only to such a browser.
 *
 * Writes dist/app/.vite/pages.json (the manifest, server/spa/pages.ts) and .vite/pages/<lang>.json
 * (page key -> the markup inside #root); slots (the year, the logo) are tokens server/spa/html.ts fills in.
 * For a route whose first state is a plain form (its step's plainForm), also the pages that answer its
 * post and .vite/forms.json, which describes the form to server/spa/forms.ts, with .vite/texts/.
 */
const PRERENDER_DIR = 'build/prerender';

/** What src/prerender.tsx renders (its PageRequest, as this script uses it). */
interface PageRequest {
  path: string;
  lang: string;
  answers: SiteAnswers & { config: { botCheck?: { provider: string } } };
  place: { origin: string; hostname: string; languages: string[]; cookie: string };
  slots: Record<string, unknown>;
  loading?: boolean;
}

interface Renderer {
  renderPage(request: PageRequest): Promise<{ html: string; texts: string[] }>;
  availableLanguages(): string[];
  routes: Array<{ path: string; screenId: string; title: string; route?: { context?: Record<string, unknown> } }>;
  screenModule(screenId: string): Promise<{ screen: ScreenFile; outcomes: SharedOutcomes } | undefined>;
}

/**
 * The pages that answer a plain form's post (server/spa/forms.ts): its step with an error or a warning
 * on show (the text a slot), and each step an outcome leads to without assigning context (its page
 * shows nothing the build cannot know), with the outcome's message kind when it shows one.
 */
function answersOf(step: string, spec: ScreenFile['steps'][string], steps: ScreenFile['steps']): Map<string, Slots> {
  const out = new Map<string, Slots>([
    ['error', { start: { step, error: { key: PAGE_SLOTS.text, values: {} } } }],
    ['warning', { start: { step, warning: { key: PAGE_SLOTS.text, values: {} } } }],
  ]);
  const outcomes: Outcome[] = submitsOf(spec).flatMap((submit) => Object.values(submit.outcomes ?? {}));
  for (const outcome of outcomes) {
    if (!outcome.step || outcome.assign || !steps[outcome.step]) continue;
    const kind = outcome.message?.kind ?? (outcome.message ? 'info' : undefined);
    out.set(kind ? `step:${outcome.step}:${kind}` : `step:${outcome.step}`, {
      start: { step: outcome.step },
      ...(kind ? { message: { key: PAGE_SLOTS.message, kind } } : {}),
    });
  }
  return out;
}

type Slots = Record<string, unknown>;

/** Every value a site fact takes, the first being the probe's baseline. */
const DIMENSIONS: Record<SiteDimension, readonly string[]> = {
  production: ['0', '1'],
  selfRegistration: ['1', '0'],
  brand: ['none', 'named', 'logo'],
};

type Site = Record<SiteDimension, string>;
const BASE_SITE: Site = { production: '0', selfRegistration: '1', brand: 'none' };

/** What the start-up calls would answer for these site facts (slot tokens for the logo and its name). */
function answersFor(site: Site): PageRequest['answers'] {
  return {
    config: {
      environment: site.production === '1' ? 'production' : 'development',
      selfRegistrationEnabled: site.selfRegistration === '1',
      botCheck: { provider: 'altcha' },
    },
    branding: {
      isEnabled: true,
      theme: DEFAULT_THEME,
      ...(site.brand !== 'none' ? { browserName: PAGE_SLOTS.brandName } : {}),
      ...(site.brand === 'logo' ? { loginLogo: PAGE_SLOTS.logo } : {}),
    },
  };
}

/** The place a page is rendered for: its own language is the browser's (the server sends it when that holds). */
const placeFor = (lang: string) => ({ origin: 'http://prerender.invalid', hostname: 'prerender.invalid', languages: [lang], cookie: '' });
const OTHER_ORIGIN = { origin: 'https://other.invalid:8443', hostname: 'other.invalid' };
/** The cookies the app itself reads (the language cookie aside, which picks the page). */
const APP_COOKIES = [EXPIRED_TRIAL_COOKIE];
/**
 * The text chunk a route's page loads before it hydrates: its screen's first texts (tooling/generate/data.ts),
 * when they hold every locale file the page was seen to show; else all of the language (the page is
 * then right, only heavier: the build says so).
 */
function firstTexts(lang: string, route: Route, shown: readonly string[]): string {
  const bundle = `first-${route.screenId}`;
  const files = Object.keys(JSON.parse(readFileSync(join('src/generated/locales', lang, `${bundle}.json`), 'utf8')) as Record<string, unknown>);
  const missing = shown.filter((file) => !files.includes(file));
  if (missing.length === 0) return bundle;
  console.warn(`prerender: ${route.path} shows texts of ${missing.join(', ')}, not in ${bundle}: its page loads all texts first`);
  return 'all';
}
/** Query parameters every screen might read besides its own `$query/...` sources. */
const COMMON_QUERY = ['state', 'message', 'return_to', 'redirect_uri', 'theme'];

/** A query value that a screen reads as it would a real one: for its state parameter, a valid state (each field a sample of its type). */
function sampleQuery(name: string, screen: { stateParam?: { fields: Record<string, { type: string; enum?: string[] }> } }): string {
  if (name !== 'state' || !screen.stateParam) return `fd-sample-${name}`;
  const sample = (spec: { type: string; enum?: string[] }) =>
    spec.type === 'boolean' ? true : spec.type === 'number' ? 1 : spec.type === 'stringArray' ? (spec.enum ?? ['fd-sample']) : (spec.enum?.[0] ?? 'fd-sample');
  const value = Object.fromEntries(Object.entries(screen.stateParam.fields).map(([field, spec]) => [field, sample(spec)]));
  return Buffer.from(JSON.stringify(value)).toString('base64url');
}

function combinations(dimensions: SiteDimension[]): Site[] {
  let out: Site[] = [{ ...BASE_SITE }];
  for (const dimension of dimensions) out = out.flatMap((site) => DIMENSIONS[dimension].map((value) => ({ ...site, [dimension]: value })));
  return out;
}

/**
 * Whether a screen, in a browser without scripts, only signs the visitor in: its first step has no
 * button (its widgets submit it) and calls no server, and what applies when no widget ran signs in
 * (the passkey offer: no passkey without scripts). A plain form's answer goes straight on through it.
 */
function signsInWithoutScripts(screen: ScreenFile): boolean {
  const step = screen.steps[screen.initialStep];
  const submits = submitsOf(step);
  if (submits.length === 0 || submits.some((submit) => submit.button !== false || submit.operation !== undefined)) return false;
  const fallback = activeSubmit(step, { form: {}, ctx: { ...screen.context }, flags: {}, params: {}, query: {}, env: {} });
  return fallback?.outcome?.authenticate !== undefined && fallback.outcome.authenticate !== false;
}

type Request = Omit<PageRequest, 'slots' | 'place'> & Partial<Pick<PageRequest, 'slots' | 'place'>>;
type Route = Renderer['routes'][number];

/** The prerenderer loaded, the languages it has and the one the probes render in; `render` gives a page's markup. */
interface Prerender {
  renderer: Renderer;
  languages: string[];
  probeLang: string;
  slots: Slots;
  rendered(request: Request): Promise<{ html: string; texts: string[] }>;
  render(request: Request): Promise<string>;
}

async function loadPrerenderer(): Promise<Prerender> {
  await build({ configFile: 'vite.config.ts', logLevel: 'warn', build: { ssr: 'src/prerender.tsx' } });
  const renderer = (await import(pathToFileURL(resolve(PRERENDER_DIR, 'prerender.js')).href)) as Renderer;
  const languages = renderer.availableLanguages();
  const slots = { year: PAGE_SLOTS.year };
  const rendered = (request: Request) => renderer.renderPage({ place: placeFor(request.lang), slots, ...request });
  const probeLang = languages.includes(DEFAULT_LANGUAGE) ? DEFAULT_LANGUAGE : (languages[0] ?? DEFAULT_LANGUAGE);
  return { renderer, languages, probeLang, slots, rendered, render: async (request) => (await rendered(request)).html };
}

/** The site facts whose values change a page's markup (`loading`: its loading page's). */
async function siteDimensions(p: Prerender, path: string, loading: boolean, base: string): Promise<SiteDimension[]> {
  const site: SiteDimension[] = [];
  for (const dimension of Object.keys(DIMENSIONS) as SiteDimension[]) {
    for (const value of DIMENSIONS[dimension].slice(1)) {
      if (site.includes(dimension)) break;
      const other = await p.render({ path, lang: p.probeLang, answers: answersFor({ ...BASE_SITE, [dimension]: value }), ...(loading ? { loading } : {}) });
      if (other !== base && !site.includes(dimension)) site.push(dimension);
    }
  }
  return site;
}

/**
 * What a route's first state depends on, found by rendering it with each thing varied: site facts
 * (page variants), the route's parameters and the browser's place (then it cannot be written ahead),
 * the app's cookies, the browser's language, the query parameters it could read; and the texts it
 * loads before it hydrates (those its first state shows, its screen's own, the frame's and the messages').
 */
async function probeRoute(p: Prerender, route: Route, path: string, first: { html: string; texts: string[] }): Promise<PageVariant | undefined> {
  const lang = p.probeLang;
  const differs = async (request: Partial<PageRequest>) => (await p.render({ path, lang, answers: answersFor(BASE_SITE), ...request })) !== first.html;
  const site = await siteDimensions(p, path, false, first.html);
  const params = routeParams(route.path).length > 0 && (await differs({ path: samplePath(route.path, (name) => `fd-other-${name}`) }));
  const place = await differs({ place: { ...placeFor(lang), ...OTHER_ORIGIN } });
  // A page that reads a cookie of the app's (the expired-trial key): not sent to a browser that has it.
  const cookies: string[] = [];
  for (const name of APP_COOKIES) if (await differs({ place: { ...placeFor(lang), cookie: `${name}=fd-sample` } })) cookies.push(name);
  // A page that shows the browser's language (a form's default): sent when the browser's is the page's.
  const browserLanguage = await differs({ place: { ...placeFor(lang), languages: [lang === 'de-de' ? 'fr-fr' : 'de-de'] } });
  const screenFile = readFileSync(join('src/generated/screens', `${route.screenId}.json`), 'utf8');
  const candidates = [...new Set([...COMMON_QUERY, ...[...screenFile.matchAll(/\$query\/([A-Za-z0-9_]+)/g)].map((m) => m[1] ?? '')])];
  const query: string[] = [];
  for (const name of candidates) {
    const value = sampleQuery(name, JSON.parse(screenFile) as Parameters<typeof sampleQuery>[1]);
    if (await differs({ path: `${path}?${name}=${encodeURIComponent(value)}` })) query.push(name);
  }
  // An optional parameter's page is another first state (a reset link's new password, not the form
  // asking for one): the page is written for the address without it (html.ts sends the loading card with it).
  const optional = routeParams(route.path).filter((name) => route.path.includes(`:${name}?`));
  const withOptional = optional.length > 0 && (await differs({ path: samplePath(route.path, (name) => `fd-other-${name}`, { optional: true }) }));
  // A page that depends on the route's parameters or the browser's place cannot be written ahead.
  if (params || place) return undefined;
  return {
    site,
    query,
    ...(withOptional ? { optional } : {}),
    texts: [firstTexts(lang, route, first.texts)],
    ...(browserLanguage ? { browserLanguage } : {}),
    ...(cookies.length ? { cookies } : {}),
  };
}

/** A plain form on the route's first state (its step's plainForm): its description for the server, and the answer pages to write. */
async function plainFormOf(p: Prerender, route: Route, html: string, screen: PageVariant | undefined) {
  const firstStep = /data-step="([^"]+)"/.exec(html)?.[1];
  const module = screen && firstStep ? await p.renderer.screenModule(route.screenId) : undefined;
  const spec = firstStep ? module?.screen.steps[firstStep] : undefined;
  if (!module || !firstStep || !spec?.plainForm || !screen) return { answers: new Map<string, Slots>(), form: undefined };
  const answers = answersOf(firstStep, spec, module.screen.steps);
  const form: PlainForm = {
    path: route.path,
    screenId: route.screenId,
    step: firstStep,
    context: { ...module.screen.context, ...route.route?.context },
    spec,
    outcomes: module.outcomes,
    answers: [...answers.keys()],
    site: screen.site,
  };
  return { answers, form };
}

/** Every page of a route in one language: its plain form's answers, its loading page and its first state, each site variant. */
async function renderRoute(
  p: Prerender,
  route: Route,
  path: string,
  lang: string,
  variants: { screen?: PageVariant; loading: PageVariant; answers: Map<string, Slots> },
) {
  const out: Record<string, string> = {};
  const { screen, loading, answers } = variants;
  for (const [answer, answerSlots] of answers) {
    for (const combination of combinations(screen?.site ?? [])) {
      out[pageKey(route.path, `answer:${answer}`, screen?.site ?? [], combination)] = await p.render({
        path,
        lang,
        answers: answersFor(combination),
        slots: { ...p.slots, ...answerSlots },
      });
    }
  }
  for (const combination of combinations(loading.site))
    out[pageKey(route.path, 'loading', loading.site, combination)] = await p.render({ path, lang, answers: answersFor(combination), loading: true });
  for (const combination of screen ? combinations(screen.site) : [])
    out[pageKey(route.path, 'screen', screen?.site ?? [], combination)] = await p.render({ path, lang, answers: answersFor(combination) });
  return out;
}

/** The pages and their manifest, the plain forms' description and the compiled texts, into the build's .vite folder. */
async function writePages(p: Prerender, appDir: string, pages: Record<string, Record<string, string>>, manifest: PagesManifest, forms: PlainForms) {
  const dir = join(appDir, '.vite/pages');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [lang, byKey] of Object.entries(pages)) writeFileSync(join(dir, `${lang}.json`), JSON.stringify(byKey));
  writeFileSync(join(appDir, '.vite/pages.json'), JSON.stringify(manifest, null, 1));
  // Where a plain form's answer goes on signed in instead of following a navigation (see signsInWithoutScripts).
  for (const route of p.renderer.routes) {
    const module = await p.renderer.screenModule(route.screenId);
    if (module && signsInWithoutScripts(module.screen) && !forms.signInThrough?.includes(route.path)) (forms.signInThrough ??= []).push(route.path);
  }
  writeFileSync(join(appDir, '.vite/forms.json'), JSON.stringify(forms, null, 1));
  // The compiled texts, for the server's answers to plain forms (their error and message texts).
  const texts = join(appDir, '.vite/texts');
  rmSync(texts, { recursive: true, force: true });
  mkdirSync(texts, { recursive: true });
  for (const lang of p.languages) copyFileSync(join('src/generated/locales', `${lang}.json`), join(texts, `${lang}.json`));
}

export async function prerenderPages(appDir = 'dist/app'): Promise<{ pages: number; routes: number; languages: number; ms: number }> {
  const started = Date.now();
  const p = await loadPrerenderer();
  const manifest: PagesManifest = { slots: PAGE_SLOTS, languageCookie: LANGUAGE_COOKIE, routes: [] };
  const forms: PlainForms = { landing: { default: DEFAULT_LANDING, endUser: END_USER_LANDING }, forms: [] };
  const pages: Record<string, Record<string, string>> = Object.fromEntries(p.languages.map((lang) => [lang, {}]));
  const seen = new Set<string>();
  for (const route of p.renderer.routes) {
    if (seen.has(route.path)) continue;
    seen.add(route.path);
    const path = samplePath(route.path, (name) => `fd-sample-${name}`);
    const first = await p.rendered({ path, lang: p.probeLang, answers: answersFor(BASE_SITE) });
    const screen = await probeRoute(p, route, path, first);
    // The loading page shows the frame and the card's heading: only the brand matters there.
    const loadingBase = await p.render({ path, lang: p.probeLang, answers: answersFor(BASE_SITE), loading: true });
    const loading: PageVariant = { site: await siteDimensions(p, path, true, loadingBase) };
    manifest.routes.push({ path: route.path, screenId: route.screenId, screen, loading });
    const { answers, form } = await plainFormOf(p, route, first.html, screen);
    if (form) forms.forms.push(form);
    for (const lang of p.languages) Object.assign(pages[lang]!, await renderRoute(p, route, path, lang, { screen, loading, answers }));
  }
  // A host whose site is switched off: the frame's not-available card, whatever the path.
  for (const lang of p.languages) {
    pages[lang]![pageKey('*', 'disabled', [], BASE_SITE)] = await p.render({
      path: '/login',
      lang,
      answers: { ...answersFor(BASE_SITE), branding: { isEnabled: false } },
    });
  }
  await writePages(p, appDir, pages, manifest, forms);
  const count = Object.values(pages).reduce((n, byKey) => n + Object.keys(byKey).length, 0);
  return { pages: count, routes: manifest.routes.length, languages: p.languages.length, ms: Date.now() - started };
}
