/**
 * The built SPA (dist/app): hashed /assets/* are immutable and sent precompressed (.br/.gz written by
 * the build, chosen by Accept-Encoding, with Vary; static.ts); every other GET for a non-API path that
 * accepts text/html — or, like a bare `curl`, anything (no Accept, or any) for a path without a file
 * extension — answers index.html (no-cache, with an ETag), with `<link rel="modulepreload">` for what
 * that route's first screen needs (.vite/preload.json) and the prerendered page of the route, else
 * its static page frame and card, in the visitor's language (html.ts, from the build as build.ts reads
 * it), compressed once per route, language and branding and kept in memory (cache.ts); the entry's
 * CSS inline as a <style> allowed by its build-time hash (.vite/preload.json `styles`,
 * security/page-styles.ts). The client router does the rest. A plain form's post is answered by
 * forms.ts. A missing build answers 503 "App not built: run npm run build". Unknown API paths, and
 * other requests for files that do not exist, answer 404 JSON.
 */
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { allowPageStyles } from '../security/page-styles.js';
import { isApiRequest } from '../security/requestPath.js';
import { pageRateLimit } from '../security/pageRateLimit.js';
import { bindBrowser } from '../services/browserBinding.js';
import { browserId } from '../services/funnel.js';
import { secureRequest } from '../services/publicUrl.js';
import { createBuildOutput, routePattern, type BuildOutput } from './build.js';
import { createPageCache, type PageCache } from './cache.js';
import { registerPlainForms, type PlainFormPages } from './forms.js';
import { answersOf, buildHtml, languageOf, prerendered, type PageAnswers } from './html.js';
import { pageKey, siteFacts } from './pages.js';
import { fileInside, IMMUTABLE, notBuilt, pickEncoding, sendFile } from './static.js';

/** The cache key's route part for every path no route knows: they share one page. */
export const UNKNOWN_PAGE = '*';

/** The page of a path for this request, from the page cache (built on first request; dropped when a new build lands). */
function pageVariant(app: FastifyInstance, build: BuildOutput, variants: PageCache, req: FastifyRequest, urlPath: string) {
  build.refresh();
  const request = { req, urlPath, lang: languageOf(build, req), answers: answersOf(app, req) };
  const page = prerendered(build, request);
  // Per route pattern, not per address: /register/A and /register/B share their page, and every
  // unknown path shares one (UNKNOWN_PAGE): what is built depends on the path only through the routes it matches.
  const key = [build.routeOf(urlPath) ?? UNKNOWN_PAGE, page?.key, request.lang, JSON.stringify(request.answers), new Date().getFullYear()].join('\n');
  const variant = variants.get(key, () => buildHtml(build, request, page, { scripts: true }));
  allowPageStyles(req, build.styleHashes());
  return variant;
}

/** Sends the page of a path: no-cache with its ETag (304 when the browser has it), in the encoding the request accepts. */
function sendPage(app: FastifyInstance, build: BuildOutput, variants: PageCache, req: FastifyRequest, reply: FastifyReply, urlPath: string) {
  const variant = pageVariant(app, build, variants, req, urlPath);
  // The browser's binding nonce (services/browserBinding.ts) comes with its first page, before any
  // script runs: were it first given by an API answer, two calls in flight at once (the passkey
  // autofill's options and the sign-in) could each be given one, and the token bound to the nonce the
  // browser did not keep would read as expired.
  bindBrowser(app.fd, req, reply);
  // The funnel's browser id (fd_vid) too, for the same reason: the page's idle-time calls (its
  // experiments and its first events) then go at once, side by side, and carry one id (issue 39).
  browserId(req, reply, secureRequest(app.fd, req));
  reply.header('Cache-Control', 'no-cache').header('ETag', variant.etag).header('Vary', 'Accept-Encoding, Accept-Language, Cookie');
  reply.type('text/html; charset=utf-8');
  if (String(req.headers['if-none-match'] ?? '') === variant.etag) return reply.code(304).send();
  const encoding = pickEncoding(String(req.headers['accept-encoding'] ?? ''));
  if (encoding !== 'identity') reply.header('Content-Encoding', encoding);
  // A Buffer, not a string: the security headers treat string pages as server-rendered (inline hashes).
  return reply.send(encoding === 'br' ? variant.br : encoding === 'gzip' ? variant.gzip : variant.identity);
}

/** What the plain forms (forms.ts) are lent: the build's forms, texts and pages. */
function plainFormPages(app: FastifyInstance, build: BuildOutput): PlainFormPages<PageAnswers> {
  return {
    forms: () => {
      build.refresh();
      return build.forms();
    },
    isPage: (urlPath) => {
      build.refresh();
      return build.isBuilt() && build.isPage(urlPath);
    },
    languageOf: (req) => languageOf(build, req),
    answersOf: (req) => answersOf(app, req),
    texts: (lang) => build.texts(lang),
    answerPage: (req, urlPath, lang, answers, kind, fill) => {
      const route = build.forms()?.forms.find((form) => routePattern(form.path).test(urlPath));
      if (!route || !build.pages()) return undefined;
      const key = pageKey(route.path, `answer:${kind}`, route.site, siteFacts(answers));
      if (build.pageHtml(lang, key) === undefined) return undefined;
      return buildHtml(build, { req, urlPath, lang, answers }, { key, hydrate: false }, { scripts: false, fill });
    },
  };
}

/** Security headers (CSP included) are added to every answer by server/security/headers.ts. */
export function registerSpa(app: FastifyInstance, staticDir: string): void {
  const root = path.resolve(staticDir);
  const variants = createPageCache();
  const build = createBuildOutput(root, () => variants.clear());
  app.decorate('pageCache', variants);
  const pageLimited = pageRateLimit(app, app.fd.config.pageRateLimit);

  // Plain forms (a step's plainForm): without the app, the form posts to its page's address.
  registerPlainForms(app, plainFormPages(app, build));

  app.get('/assets/*', async (req, reply) => {
    const file = fileInside(root, req.url.split('?')[0] ?? '');
    if (!file) {
      if (!build.isBuilt()) return notBuilt(reply);
      return apiError(reply, 404, 'NOT_FOUND', 'No such asset');
    }
    return sendFile(reply, root, file, IMMUTABLE);
  });

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const urlPath = req.url.split('?')[0] ?? '/';
    if (isApiRequest(req) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return apiError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${urlPath}`);
    }
    if (!build.isBuilt()) return notBuilt(reply);
    const file = fileInside(root, urlPath);
    if (file && file !== build.indexFile) {
      // A page of the build other than index.html (the bench's plain form: /login without its scripts)
      // may carry the same inlined CSS: the same hashes allow it.
      build.refresh();
      if (file.endsWith('.html')) allowPageStyles(req, build.styleHashes());
      return sendFile(reply, root, file, 'no-cache');
    }
    // A browser asks for text/html; a bare curl (no Accept, or */*) for a page path gets the page too.
    const accept = String(req.headers.accept ?? '').trim();
    const anything = accept === '' || accept.includes('*/*');
    if (accept.includes('text/html') || (anything && path.posix.extname(urlPath) === '')) {
      if (await pageLimited(req, reply)) return reply;
      return sendPage(app, build, variants, req, reply, urlPath);
    }
    return apiError(reply, 404, 'NOT_FOUND', `No such file ${urlPath}`);
  });
}
