/**
 * A page's HTML for one request: index.html in the visitor's language with the host's title and theme,
 * in #root the build's prerendered page for the route (pages.ts) or else the static frame and card
 * (shell.ts), the facts the app starts from, the entry's CSS inline and the route's preloads.
 */
import fs from 'node:fs';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { acceptedLanguages, pickLanguage } from '../../catalogue/language/languages.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from '../services/lists.js';
import { appConfigAnswer } from '../routes/appConfig.js';
import { brandingAnswer } from '../routes/branding.js';
import { requestHostname } from '../services/publicUrl.js';
import { allowPageStyles } from '../security/page-styles.js';
import type { BuildOutput } from './build.js';
import { optionalParamsGiven } from '../../catalogue/language/routes.js';
import { escapeHtml, fillSlots, pageKey, siteFacts } from './pages.js';
import { shellPage, withShell, type ShellBranding } from './shell.js';

/** What the two start-up calls (GET /ws/app-config, GET /branding/generalData) answer a request: the page carries them. */
export interface PageAnswers {
  config: ReturnType<typeof appConfigAnswer>;
  branding: ReturnType<typeof brandingAnswer>;
}

/** What the two start-up calls would answer this request (the app needs no round trip). */
export const answersOf = (app: FastifyInstance, req: FastifyRequest): PageAnswers => ({
  config: appConfigAnswer(app, req),
  branding: brandingAnswer(app.fd.branding.row(requestHostname(req))),
});

/** One request for a page: the path, the visitor's language and the site's answers. */
export interface PageRequest {
  req: FastifyRequest;
  urlPath: string;
  lang: string;
  answers: PageAnswers;
}

/** A prerendered page: its key in .vite/pages/<lang>.json, whether the browser hydrates it, and the locale files it shows. */
export interface PrerenderedPage {
  key: string;
  hydrate: boolean;
  texts?: string[];
}

/** The language the client will pick from Accept-Language (the app's rule: catalogue/language/languages.ts). */
export function languageFor(acceptLanguage: string, available: string[]): string {
  return pickLanguage(acceptedLanguages(acceptLanguage), available, DEFAULT_LANGUAGE);
}

/** The visitor's language: their choice (the switcher's cookie), else Accept-Language, as the app picks it. */
export function languageOf(build: BuildOutput, req: FastifyRequest): string {
  const available = build.languages();
  const cookie = build.pages()?.languageCookie ?? build.shell()?.languageCookie;
  const chosen = cookie ? req.cookies?.[cookie]?.toLowerCase() : undefined;
  if (chosen && available.includes(chosen)) return chosen;
  return languageFor(String(req.headers['accept-language'] ?? ''), available);
}

/** The host's branding as the static frame of shell.ts draws it. */
export function brandingOf(answer: PageAnswers['branding']): ShellBranding {
  if (!answer.isEnabled) return { kind: 'disabled' };
  const branded = 'browserName' in answer || 'loginLogo' in answer;
  if (!branded) return { kind: 'default', ...(answer.theme ? { theme: answer.theme } : {}) };
  return {
    kind: 'branded',
    ...('browserName' in answer && answer.browserName ? { name: answer.browserName } : {}),
    ...('loginLogo' in answer && answer.loginLogo ? { logo: answer.loginLogo } : {}),
    ...(answer.theme ? { theme: answer.theme } : {}),
  };
}

/**
 * The prerendered page for this request: the screen's first state when the build found it does not
 * depend on anything in this address it could not know (then the browser hydrates it), else the
 * screen's loading card; a switched-off site's not-available card whatever the path.
 */
export function prerendered(build: BuildOutput, { req, urlPath, lang, answers }: PageRequest): PrerenderedPage | undefined {
  const pages = build.pages();
  if (!pages) return undefined;
  const query = new URLSearchParams(req.url.split('?')[1] ?? '');
  const cookies: Record<string, string | undefined> = req.cookies ?? {};
  const facts = siteFacts(answers);
  if (answers.branding.isEnabled === false) return { key: pageKey('*', 'disabled', [], facts), hydrate: true };
  // Any other path ends on /login (the client router): its loading card.
  const found = build.pageRoute(urlPath);
  const route = found ?? pages.routes.find((candidate) => candidate.path === '/login');
  if (!route) return undefined;
  const screen = found ? route.screen : undefined;
  // A page showing the browser's language was rendered for a browser whose language is the page's.
  const acceptLanguage = String(req.headers['accept-language'] ?? '');
  const browserAgrees = !screen?.browserLanguage || languageFor(acceptLanguage, [...LANGUAGES]) === languageFor(lang, [...LANGUAGES]);
  const cookieless = !(screen?.cookies ?? []).some((name) => cookies[name] !== undefined);
  const given = screen?.optional?.length ? optionalParamsGiven(route.path, urlPath) : [];
  const optionalGiven = (screen?.optional ?? []).some((name) => given.includes(name));
  if (screen && browserAgrees && cookieless && !optionalGiven && !(screen.query ?? []).some((name) => query.has(name)))
    return { key: pageKey(route.path, 'screen', screen.site, facts), hydrate: true, ...(screen.texts ? { texts: screen.texts } : {}) };
  return { key: pageKey(route.path, 'loading', route.loading.site, facts), hydrate: false };
}

/**
 * The texts a page loads first: a hydrated page's first-texts chunk, which the page names (no loader
 * module before it), and its file; none for any other page, which loads all of them through the
 * language's loader module.
 */
function firstTexts(build: BuildOutput, lang: string, page: PrerenderedPage | undefined): { first?: string; file?: string } {
  const byFile = build.preload()?.locales[lang] ?? {};
  const first = page?.hydrate ? page.texts?.find((file) => byFile[file] !== undefined) : undefined;
  return first ? { first, file: byFile[first] } : {};
}

/** How a page is built: with the app's scripts or without (a plain form's answer), and what fills a plain form's answer. */
export interface PageOptions {
  scripts: boolean;
  fill?: (markup: string) => string;
}

/**
 * index.html with the page's lang, dir, theme and title and in #root the prerendered page (its slots
 * filled, then `fill`), else the static frame; with scripts, the facts the app starts from as data-page.
 */
function withPage(build: BuildOutput, html: string, request: PageRequest, page: PrerenderedPage | undefined, options: PageOptions): string {
  const { urlPath, lang, answers } = request;
  const shell = build.shell();
  const card = build.shellCard(urlPath);
  if (!shell || !card) return html;
  const year = new Date().getFullYear();
  const framed = shellPage(card, shell, shell.texts[lang] ?? {}, lang, brandingOf(answers.branding), year);
  const markup = page ? build.pageHtml(lang, page.key) : undefined;
  const brandName = ('browserName' in answers.branding && answers.branding.browserName) || (shell.texts[lang]?.['app.defaultTitle'] ?? '');
  const logo = ('loginLogo' in answers.branding && answers.branding.loginLogo) || '';
  const root = markup === undefined ? framed.root : (options.fill ?? ((m: string) => m))(fillSlots(markup, { year, brandName, logo }));
  const hydrate = markup !== undefined && page?.hydrate === true;
  const { first, file: textsFile } = firstTexts(build, lang, page);
  const facts = escapeHtml(JSON.stringify({ lang, ...answers, ...(hydrate ? { hydrate, ...(first ? { texts: [first], textsFile } : {}) } : {}) }));
  return withShell(html, { ...framed, root }, options.scripts ? `data-page="${facts}"` : '');
}

/**
 * A page: index.html made the request's (withPage), the entry's CSS inline (its hashes allowed for
 * this request), and with scripts the early script and `<link rel="modulepreload">` for the route's
 * first screen and the texts it loads first; without, no script at all (a plain form's answer is a
 * page for a visitor without the app: forms.ts).
 */
export function buildHtml(build: BuildOutput, request: PageRequest, page: PrerenderedPage | undefined, options: PageOptions): Buffer {
  const { req, urlPath, lang } = request;
  const preload = build.preload();
  const byFile = preload?.locales[lang] ?? {};
  const { first } = firstTexts(build, lang, page);
  const locale = (first ? [first] : ['index', 'all']).flatMap((file) => (byFile[file] ? [byFile[file]] : []));
  // The texts before the route's files, which end with what runs at idle (scripts/vite-static.ts): over
  // HTTP/1.1's six connections what hydrating needs goes first, the idle-time chunks queue last.
  const files = preload && options.scripts ? [...locale, ...(build.preloadFiles(urlPath) ?? []), ...preload.common] : [];
  let html = fs.readFileSync(build.indexFile, 'utf8');
  for (const style of build.inlineStyles()) html = html.replace(style.link, () => style.block);
  allowPageStyles(req, build.styleHashes());
  if (!options.scripts) html = html.replace(/\s*<script type="module"[^>]*><\/script>/g, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
  html = withPage(build, html, request, page, options);
  const early = preload?.early && options.scripts ? `    <script type="module" async src="${preload.early}"></script>\n` : '';
  const links = files.map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`).join('');
  return Buffer.from(links || early ? html.replace('</head>', `${early}${links}  </head>`) : html);
}
