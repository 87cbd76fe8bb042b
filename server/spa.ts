/**
 * The built SPA (dist/app): hashed /assets/* are immutable and sent precompressed (.br/.gz written by
 * the build, chosen by Accept-Encoding, with Vary); every other GET for a non-API path that accepts
 * text/html — or, like a bare `curl`, anything (no Accept, or any) for a path without a file
 * extension — answers index.html (no-cache, with an ETag), with `<link rel="modulepreload">` for what
 * that route's first screen needs (.vite/preload.json) and the static page frame and card of the
 * route in the visitor's language (.vite/shell.json, server/spa-shell.ts), compressed once per route,
 * language and branding and kept in memory; the entry's CSS inline as a <style> allowed by its
 * build-time hash (.vite/preload.json `styles`, security/page-styles.ts). The client router does the rest. A missing build
 * answers 503 "App not built: run npm run build". Unknown API paths, and other requests for files
 * that do not exist, answer 404 JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { routeMatches } from '../catalogue/language/routes.js';
import { apiError } from './errors.js';
import { DEFAULT_LANGUAGE, LANGUAGES } from './services/lists.js';
import { appConfigAnswer } from './routes/appConfig.js';
import { brandingAnswer } from './routes/branding.js';
import { requestHostname } from './services/publicUrl.js';
import { shellPage, withShell, type ShellBranding, type ShellData } from './spa-shell.js';
import { escapeHtml, fillSlots, pageKey, siteFacts, type PagesManifest } from './spa-pages.js';
import { registerPlainForms, type PlainForms } from './spa-forms.js';
import { allowPageStyles } from './security/page-styles.js';
import { isApiRequest } from './security/requestPath.js';
import { pageRateLimit } from './security/pageRateLimit.js';
import { createPageCache } from './spa-cache.js';
import { bindBrowser } from './services/browserBinding.js';
import { translator, type TextTree, type TFunction } from '../catalogue/language/texts.js';
import { acceptedLanguages, pickLanguage } from '../catalogue/language/languages.js';
import type { PreloadMap } from '../catalogue/build-contract.js';

export const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The cache key's route part for every path no route knows: they share one page. */
export const UNKNOWN_PAGE = '*';

/** A regular file strictly inside root for a URL path, or null. */
function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // Dot-files and dot-directories (the build's .vite/ manifests) are not served.
  if (decoded.includes('\0') || /(^|\/)\./.test(path.posix.normalize('/' + decoded))) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** The link vite writes into index.html for an entry CSS file. */
const stylesheetLink = (href: string) => new RegExp(`<link rel="stylesheet"(?: crossorigin)? href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">`);

/** A catalogue route pattern as a matcher: react-router's matching, as the app's router (catalogue/language/routes.ts). */
export function routePattern(pattern: string): { test(path: string): boolean } {
  return { test: (urlPath) => routeMatches(pattern, urlPath) };
}

/** The language the client will pick from Accept-Language (the app's rule: catalogue/language/languages.ts). */
export function languageFor(acceptLanguage: string, available: string[]): string {
  return pickLanguage(acceptedLanguages(acceptLanguage), available, DEFAULT_LANGUAGE);
}

/** br, then gzip, then none, as the request accepts (q=0 refuses). */
export function pickEncoding(acceptEncoding: string): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
    accepted.set(name.trim(), Number.isFinite(q) ? q : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/** Security headers (CSP included) are added to every answer by server/security/headers.ts. */
// registerSpa becomes the modules of server/spa/ in issue 41 server split.
// eslint-disable-next-line max-lines-per-function -- issue 41 server split
export function registerSpa(app: FastifyInstance, staticDir: string): void {
  const root = path.resolve(staticDir);
  const indexFile = path.join(root, 'index.html');
  const preloadFile = path.join(root, '.vite', 'preload.json');
  const shellFile = path.join(root, '.vite', 'shell.json');
  const pagesFile = path.join(root, '.vite', 'pages.json');
  const formsFile = path.join(root, '.vite', 'forms.json');

  const send = (reply: FastifyReply, file: string, cacheControl: string) => {
    reply.header('Cache-Control', cacheControl);
    return reply.sendFile(path.relative(root, file), root, { cacheControl: false });
  };

  const notBuilt = (reply: FastifyReply) =>
    reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('App not built: run npm run build\n');

  // index.html per route, language and branding, built on first request; dropped when a new build lands.
  let builtAt = 0;
  let preload: PreloadMap | undefined;
  // The entry's CSS as <style> blocks (a page paints without waiting for a stylesheet request that the
  // scripts' downloads slow down), each only when its text still has the build's hash.
  let inlineStyles: Array<{ link: RegExp; block: string; hash: string }> = [];
  let patterns: Array<{ pattern: ReturnType<typeof routePattern>; path: string; files: string[] }> = [];
  let shell: ShellData | undefined;
  let shellRoutes: Array<{ pattern: ReturnType<typeof routePattern>; route: ShellData['routes'][number] }> = [];
  const variants = createPageCache();
  app.decorate('pageCache', variants);
  const pageLimited = pageRateLimit(app, app.fd.config.pageRateLimit);
  // The build's prerendered pages (scripts/prerender.ts): the manifest, and each language's pages once asked for.
  let pages: PagesManifest | undefined;
  let pageRoutes: Array<{ pattern: ReturnType<typeof routePattern>; route: PagesManifest['routes'][number] }> = [];
  const pagesByLang = new Map<string, Record<string, string>>();
  const pageHtml = (lang: string, key: string): string | undefined => {
    let byKey = pagesByLang.get(lang);
    if (!byKey) {
      try {
        byKey = JSON.parse(fs.readFileSync(path.join(root, '.vite', 'pages', `${lang}.json`), 'utf8')) as Record<string, string>;
      } catch {
        byKey = {};
      }
      pagesByLang.set(lang, byKey);
    }
    return byKey[key];
  };
  // The plain forms the build described (scripts/prerender.ts) and the compiled texts of their answers.
  let forms: PlainForms | undefined;
  const textsByLang = new Map<string, TFunction>();
  const textsOf = (lang: string): TFunction => {
    let t = textsByLang.get(lang);
    if (!t) {
      const read = (code: string): TextTree | undefined => {
        try {
          return JSON.parse(fs.readFileSync(path.join(root, '.vite', 'texts', `${code}.json`), 'utf8')) as TextTree;
        } catch {
          return undefined;
        }
      };
      t = translator({ [lang]: read(lang), [DEFAULT_LANGUAGE]: read(DEFAULT_LANGUAGE) }, lang, DEFAULT_LANGUAGE);
      textsByLang.set(lang, t);
    }
    return t;
  };
  const refresh = () => {
    let mtime: number;
    try {
      mtime = fs.statSync(indexFile).mtimeMs;
    } catch {
      return;
    }
    if (mtime === builtAt) return;
    builtAt = mtime;
    variants.clear();
    pagesByLang.clear();
    textsByLang.clear();
    try {
      forms = JSON.parse(fs.readFileSync(formsFile, 'utf8')) as PlainForms;
    } catch {
      forms = undefined;
    }
    try {
      pages = JSON.parse(fs.readFileSync(pagesFile, 'utf8')) as PagesManifest;
      pageRoutes = pages.routes.map((route) => ({ pattern: routePattern(route.path), route }));
    } catch {
      // A build without prerendered pages (or a hand-made one in tests): the static frame of spa-shell.ts.
      pages = undefined;
      pageRoutes = [];
    }
    try {
      preload = JSON.parse(fs.readFileSync(preloadFile, 'utf8')) as PreloadMap;
      patterns = preload.routes.map((route) => ({ pattern: routePattern(route.path), path: route.path, files: route.files }));
    } catch {
      // A build without the preload map (or a hand-made one in tests) is served as it is.
      preload = undefined;
      patterns = [];
    }
    inlineStyles = (preload?.styles ?? []).flatMap(({ href, hash }) => {
      const file = fileInside(root, href);
      const css = file ? fs.readFileSync(file, 'utf8') : undefined;
      // A file changed since the build (or gone) keeps its link: the policy allows no text it has not hashed.
      if (css === undefined || css.includes('</') || `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}` !== hash) return [];
      return [{ link: stylesheetLink(href), block: `<style>${css}</style>`, hash }];
    });
    try {
      shell = JSON.parse(fs.readFileSync(shellFile, 'utf8')) as ShellData;
      shellRoutes = shell.routes.map((route) => ({ pattern: routePattern(route.path), route }));
    } catch {
      shell = undefined;
      shellRoutes = [];
    }
  };
  /** The host's branding as the static frame of spa-shell.ts draws it. */
  const brandingOf = (answer: ReturnType<typeof brandingAnswer>): ShellBranding => {
    if (!answer.isEnabled) return { kind: 'disabled' };
    const branded = 'browserName' in answer || 'loginLogo' in answer;
    if (!branded) return { kind: 'default', ...(answer.theme ? { theme: answer.theme } : {}) };
    return {
      kind: 'branded',
      ...('browserName' in answer && answer.browserName ? { name: answer.browserName } : {}),
      ...('loginLogo' in answer && answer.loginLogo ? { logo: answer.loginLogo } : {}),
      ...(answer.theme ? { theme: answer.theme } : {}),
    };
  };
  /** The visitor's language: their choice (the switcher's cookie), else Accept-Language, as the app picks it. */
  const languageOf = (req: FastifyRequest, available: string[]): string => {
    const cookie = pages?.languageCookie ?? shell?.languageCookie;
    const chosen = cookie ? req.cookies?.[cookie]?.toLowerCase() : undefined;
    if (chosen && available.includes(chosen)) return chosen;
    return languageFor(String(req.headers['accept-language'] ?? ''), available);
  };
  /**
   * The prerendered page for this request: the screen's first state when the build found it does not
   * depend on anything in this address it could not know (then the browser hydrates it), else the
   * screen's loading card; a switched-off site's not-available card whatever the path.
   */
  const prerendered = (
    urlPath: string,
    query: URLSearchParams,
    answers: Parameters<typeof siteFacts>[0],
    lang: string,
    acceptLanguage: string,
    cookies: Record<string, string | undefined>,
  ): { key: string; hydrate: boolean; texts?: string[] } | undefined => {
    if (!pages) return undefined;
    const facts = siteFacts(answers);
    if (answers.branding.isEnabled === false) return { key: pageKey('*', 'disabled', [], facts), hydrate: true };
    // Any other path ends on /login (the client router): its loading card.
    const found = pageRoutes.find((candidate) => candidate.pattern.test(urlPath));
    const route = found?.route ?? pages.routes.find((candidate) => candidate.path === '/login');
    if (!route) return undefined;
    const screen = found ? route.screen : undefined;
    // A page showing the browser's language was rendered for a browser whose language is the page's.
    const browserAgrees = !screen?.browserLanguage || languageFor(acceptLanguage, [...LANGUAGES]) === languageFor(lang, [...LANGUAGES]);
    const cookieless = !(screen?.cookies ?? []).some((name) => cookies[name] !== undefined);
    if (screen && browserAgrees && cookieless && !(screen.query ?? []).some((name) => query.has(name)))
      return { key: pageKey(route.path, 'screen', screen.site, facts), hydrate: true, ...(screen.texts ? { texts: screen.texts } : {}) };
    return { key: pageKey(route.path, 'loading', route.loading.site, facts), hydrate: false };
  };
  /** Languages the build has texts for. */
  const languages = () => (preload ? Object.keys(preload.locales) : shell ? Object.keys(shell.texts) : []);
  /** What the two start-up calls would answer this request: the page carries them (the app needs no round trip). */
  const answersOf = (req: FastifyRequest) => ({ config: appConfigAnswer(app, req), branding: brandingAnswer(app.fd.branding.row(requestHostname(req))) });

  /**
   * A page: index.html with the language, title and theme, and in #root the prerendered page `page`
   * (its slots filled, then `fill` for a plain form's answer), else the static frame of spa-shell.ts.
   * With `scripts`, the app's scripts and this route's preloads and the facts the app starts from; a
   * plain form's answer has none (it is a page for a visitor without the app: server/spa-forms.ts).
   */
  const buildHtml = (
    req: FastifyRequest,
    urlPath: string,
    lang: string,
    answers: ReturnType<typeof answersOf>,
    page: { key: string; hydrate: boolean; texts?: string[] } | undefined,
    options: { scripts: boolean; fill?: (markup: string) => string },
  ): Buffer => {
    const route = patterns.find((candidate) => candidate.pattern.test(urlPath));
    // The texts the page loads first: a hydrated page's first texts, one chunk the page names (no loader
    // module before it); else all of them, through the language's loader module.
    const byFile = preload?.locales[lang] ?? {};
    const first = page?.hydrate ? page.texts?.find((file) => byFile[file] !== undefined) : undefined;
    const textsFile = first ? byFile[first] : undefined;
    const locale = (first ? [first] : ['index', 'all']).flatMap((file) => (byFile[file] ? [byFile[file]] : []));
    const files = preload && options.scripts ? [...(route?.files ?? []), ...locale, ...preload.common] : [];
    // Any other path ends on /login (the client router), so its page shows the sign-in card.
    const card = (shellRoutes.find((candidate) => candidate.pattern.test(urlPath)) ?? shellRoutes.find((candidate) => candidate.route.path === '/login'))
      ?.route;
    const year = new Date().getFullYear();
    let html = fs.readFileSync(indexFile, 'utf8');
    for (const style of inlineStyles) html = html.replace(style.link, () => style.block);
    allowPageStyles(
      req,
      inlineStyles.map((style) => style.hash),
    );
    if (!options.scripts) html = html.replace(/\s*<script type="module"[^>]*><\/script>/g, '').replace(/\s*<link rel="modulepreload"[^>]*>/g, '');
    if (shell && card) {
      const framed = shellPage(card, shell, shell.texts[lang] ?? {}, lang, brandingOf(answers.branding), year);
      const markup = page ? pageHtml(lang, page.key) : undefined;
      const brandName = ('browserName' in answers.branding && answers.branding.browserName) || (shell.texts[lang]?.['app.defaultTitle'] ?? '');
      const logo = ('loginLogo' in answers.branding && answers.branding.loginLogo) || '';
      const root = markup === undefined ? framed.root : (options.fill ?? ((m: string) => m))(fillSlots(markup, { year, brandName, logo }));
      const hydrate = markup !== undefined && page?.hydrate === true;
      const facts = escapeHtml(JSON.stringify({ lang, ...answers, ...(hydrate ? { hydrate, ...(first ? { texts: [first], textsFile } : {}) } : {}) }));
      html = withShell(html, { ...framed, root }, options.scripts ? `data-page="${facts}"` : '');
    }
    const early = preload?.early && options.scripts ? `    <script type="module" async src="${preload.early}"></script>\n` : '';
    const links = files.map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`).join('');
    return Buffer.from(links || early ? html.replace('</head>', `${early}${links}  </head>`) : html);
  };

  /**
   * The route pattern a path is a page of, or undefined for a path no route knows. Every such path
   * gets the same page (the /login loading card, from which the client router goes on), under one key:
   * built once, however many different unknown paths are asked for.
   */
  const routeOf = (urlPath: string): string | undefined =>
    pageRoutes.find((candidate) => candidate.pattern.test(urlPath))?.route.path ??
    shellRoutes.find((candidate) => candidate.pattern.test(urlPath))?.route.path ??
    patterns.find((candidate) => candidate.pattern.test(urlPath))?.path;

  const htmlFor = (req: FastifyRequest, urlPath: string) => {
    refresh();
    const lang = languageOf(req, languages());
    const answers = answersOf(req);
    const page = prerendered(
      urlPath,
      new URLSearchParams(req.url.split('?')[1] ?? ''),
      answers,
      lang,
      String(req.headers['accept-language'] ?? ''),
      req.cookies ?? {},
    );
    // Per route pattern, not per address: /register/A and /register/B share their page, and every
    // unknown path shares one (UNKNOWN_PAGE): what is built depends on the path only through the routes it matches.
    const key = [routeOf(urlPath) ?? UNKNOWN_PAGE, page?.key, lang, JSON.stringify(answers), new Date().getFullYear()].join('\n');
    const variant = variants.get(key, () => buildHtml(req, urlPath, lang, answers, page, { scripts: true }));
    allowPageStyles(
      req,
      inlineStyles.map((style) => style.hash),
    );
    return variant;
  };

  // Plain forms (a step's plainForm): without the app, the form posts to its page's address.
  registerPlainForms<ReturnType<typeof answersOf>>(app, {
    forms: () => {
      refresh();
      return forms;
    },
    isPage: (urlPath) => {
      refresh();
      return fs.existsSync(indexFile) && (pageRoutes.some((candidate) => candidate.pattern.test(urlPath)) || shellRoutes.some((c) => c.pattern.test(urlPath)));
    },
    languageOf: (req) => languageOf(req, languages()),
    answersOf,
    texts: (lang) => textsOf(lang),
    answerPage: (req, urlPath, lang, answers, kind, fill) => {
      const route = forms?.forms.find((form) => routePattern(form.path).test(urlPath));
      if (!route || !pages) return undefined;
      const key = pageKey(route.path, `answer:${kind}`, route.site, siteFacts(answers));
      if (pageHtml(lang, key) === undefined) return undefined;
      return buildHtml(req, urlPath, lang, answers, { key, hydrate: false }, { scripts: false, fill });
    },
  });

  const sendIndex = (req: FastifyRequest, reply: FastifyReply, urlPath: string) => {
    const variant = htmlFor(req, urlPath);
    // The browser's binding nonce (services/browserBinding.ts) comes with its first page, before any
    // script runs: were it first given by an API answer, two calls in flight at once (the passkey
    // autofill's options and the sign-in) could each be given one, and the token bound to the nonce the
    // browser did not keep would read as expired.
    bindBrowser(app.fd, req, reply);
    reply.header('Cache-Control', 'no-cache').header('ETag', variant.etag).header('Vary', 'Accept-Encoding, Accept-Language, Cookie');
    reply.type('text/html; charset=utf-8');
    if (String(req.headers['if-none-match'] ?? '') === variant.etag) return reply.code(304).send();
    const encoding = pickEncoding(String(req.headers['accept-encoding'] ?? ''));
    if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
    // A Buffer, not a string: the security headers treat string pages as server-rendered (inline hashes).
    return reply.send(encoding === 'br' ? variant.br : encoding === 'gzip' ? variant.gzip : variant.identity);
  };

  app.get('/assets/*', async (req, reply) => {
    const file = fileInside(root, req.url.split('?')[0] ?? '');
    if (!file) {
      if (!fs.existsSync(indexFile)) return notBuilt(reply);
      return apiError(reply, 404, 'NOT_FOUND', 'No such asset');
    }
    return send(reply, file, IMMUTABLE);
  });

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const urlPath = req.url.split('?')[0] ?? '/';
    if (isApiRequest(req) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return apiError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${urlPath}`);
    }
    if (!fs.existsSync(indexFile)) return notBuilt(reply);
    const file = fileInside(root, urlPath);
    if (file && file !== indexFile) {
      // A page of the build other than index.html (the bench's plain form: /login without its scripts)
      // may carry the same inlined CSS: the same hashes allow it.
      refresh();
      if (file.endsWith('.html'))
        allowPageStyles(
          req,
          inlineStyles.map((style) => style.hash),
        );
      return send(reply, file, 'no-cache');
    }
    // A browser asks for text/html; a bare curl (no Accept, or */*) for a page path gets the page too.
    const accept = String(req.headers.accept ?? '').trim();
    const anything = accept === '' || accept.includes('*/*');
    if (accept.includes('text/html') || (anything && path.posix.extname(urlPath) === '')) {
      if (await pageLimited(req, reply)) return reply;
      return sendIndex(req, reply, urlPath);
    }
    return apiError(reply, 404, 'NOT_FOUND', `No such file ${urlPath}`);
  });
}
