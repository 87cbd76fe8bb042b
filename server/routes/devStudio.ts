/**
 * The screen studio (registered with the other /dev tools, in demo mode only). It serves the studio's
 * own bundle (dist/studio, a separate vite build, so the visitor app does not grow) and a small API
 * over the catalogue:
 *   GET  /dev/studio                   the studio page (its own, looser CSP: see STUDIO_CSP)
 *   GET  /dev/studio/assets/*          its bundle
 *   GET  /dev/studio/api/catalogue     screen files and locale files as text, languages, result codes
 *   POST /dev/studio/api/preview       check an edit on a temporary copy; the resolved screen to render
 *   POST /dev/studio/api/save          the same check, then write screens/ and locales/ (only when clean)
 * Every edit goes through checkProject on a temporary copy of screens/, schemas/ and locales/:
 * the files in the work tree are written only when the whole catalogue is clean.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Why the studio page has its own policy: its live preview compiles the edited JSON Schemas with
 * ajv at run time (the app uses build-time precompiled validators, which cannot exist for a schema
 * being typed), and ajv compiles to functions: 'unsafe-eval'. CodeMirror writes its styles into
 * <style> elements: 'unsafe-inline' for styles only. The hover renderer of codemirror-json-schema
 * (shiki) instantiates WebAssembly: 'wasm-unsafe-eval'. Nothing else is loosened, and this header
 * is sent only for /dev/studio, which does not exist in production.
 */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

const SCREEN_ID = /^[a-z][a-zA-Z0-9]*$/;
const LANG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;
const LOCALE_FILE = /^[a-zA-Z][a-zA-Z0-9]*\.json$/;
const CATALOGUE_DIRS = ['screens', 'schemas', 'locales'] as const;
const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

export interface StudioOptions {
  /** The project whose screens/ and locales/ are read and written (default: this repository). */
  root?: string;
  /** The studio build (default <root>/dist/studio). */
  bundleDir?: string;
}

interface EditBody {
  screenId?: unknown;
  /** The screen file's full text, as typed (saved byte for byte). */
  screen?: unknown;
  /** "<lang>/<file>.json" to its full text. */
  locales?: unknown;
}

interface Edit {
  screenId: string;
  screen?: string;
  locales: Array<{ lang: string; file: string; text: string }>;
}

function parseEdit(body: EditBody): Edit | string {
  if (typeof body?.screenId !== 'string' || !SCREEN_ID.test(body.screenId)) return 'screenId must name a screen (letters and digits)';
  if (body.screen !== undefined && typeof body.screen !== 'string') return 'screen must be the file text';
  const locales: Edit['locales'] = [];
  if (body.locales !== undefined) {
    if (body.locales === null || typeof body.locales !== 'object' || Array.isArray(body.locales)) return 'locales must map "<lang>/<file>.json" to text';
    for (const [key, text] of Object.entries(body.locales as Record<string, unknown>)) {
      const [lang = '', file = '', ...rest] = key.split('/');
      if (rest.length > 0 || !LANG.test(lang) || !LOCALE_FILE.test(file) || typeof text !== 'string') return `bad locale entry "${key}"`;
      locales.push({ lang, file, text });
    }
  }
  return { screenId: body.screenId, screen: body.screen as string | undefined, locales };
}

/** A throw-away copy of the catalogue with the edit applied. */
function copyWithEdit(root: string, edit: Edit): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'frontdoor-studio-'));
  for (const part of CATALOGUE_DIRS) {
    const from = path.join(root, part);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(dir, part), { recursive: true });
  }
  if (edit.screen !== undefined) fs.writeFileSync(path.join(dir, 'screens', `${edit.screenId}.json`), edit.screen);
  for (const { lang, file, text } of edit.locales) {
    fs.mkdirSync(path.join(dir, 'locales', lang), { recursive: true });
    fs.writeFileSync(path.join(dir, 'locales', lang, file), text);
  }
  return dir;
}

/** Runs the catalogue check on the edited copy; the resolved screen (file $refs inlined) when it loads. */
async function checkEdit(root: string, edit: Edit) {
  // Loaded on first use: the check pulls in ajv and the catalogue tools, which the rest of the server
  // does not need (no React: the widget names it checks against are data, widgets/widget-names.ts).
  const { checkProject, knownResultCodes } = await import('../../scripts/catalogue/check.js');
  const { expandScreen } = await import('../../scripts/catalogue/lists.js');
  const dir = copyWithEdit(root, edit);
  try {
    const { project, problems } = checkProject({ root: dir });
    const entry = project.screens.find((s) => s.screen.id === edit.screenId);
    // As the build gives it to the browser: $refs inlined, business lists expanded.
    const screen = entry ? expandScreen(entry.screen, entry.schemas, project.lists) : null;
    const resultCodes: Record<string, string[]> = {};
    for (const name of Object.keys(project.operations)) resultCodes[name] = knownResultCodes(project, name);
    // resultFrom other than /resultCode (e.g. a probe's /authState) is looked up per call.
    const calls: Record<string, string[]> = {};
    if (entry) {
      const visit = (node: unknown) => {
        if (Array.isArray(node)) return node.forEach(visit);
        if (node === null || typeof node !== 'object') return;
        const n = node as Record<string, unknown>;
        if (typeof n.operation === 'string' && typeof n.resultFrom === 'string') {
          calls[`${n.operation}${n.resultFrom}`] = knownResultCodes(project, n.operation, n.resultFrom);
        }
        for (const [key, value] of Object.entries(n)) if (key !== 'schema' && key !== 'uiSchema') visit(value);
      };
      visit(entry.screen);
    }
    return {
      problems,
      screen,
      routes: project.screens.flatMap((s) => (s.screen.routes ?? []).map((r) => ({ path: r.path, screenId: s.screen.id }))),
      locales: project.locales,
      outcomes: project.outcomes,
      resultCodes: { ...resultCodes, ...calls },
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function sameOrigin(req: FastifyRequest): boolean {
  // The save endpoint writes files: refuse cross-site posts even though the API takes JSON only.
  const origin = req.headers.origin;
  return origin === undefined || origin === `${req.protocol}://${req.headers.host}`;
}

function sendFile(reply: FastifyReply, file: string, cache: string): FastifyReply {
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  return reply.header('Cache-Control', cache).type(type).send(fs.readFileSync(file));
}

export function studioRoutes(options: StudioOptions = {}): FastifyPluginAsync {
  const root = path.resolve(options.root ?? REPO);
  const bundle = path.resolve(options.bundleDir ?? path.join(root, 'dist/studio'));

  return async (app: FastifyInstance) => {
    const page = async (_req: FastifyRequest, reply: FastifyReply) => {
      const index = path.join(bundle, 'index.html');
      if (!fs.existsSync(index)) {
        return reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('Studio not built: run npm run build\n');
      }
      reply.header('Content-Security-Policy', STUDIO_CSP);
      return sendFile(reply, index, 'no-cache');
    };
    // The security headers hook applies a route's own policy from its config (server/security/headers.ts).
    const config = { contentSecurityPolicy: STUDIO_CSP };
    app.get('/dev/studio', { config }, page);
    app.get('/dev/studio/', { config }, page);

    app.get<{ Params: { '*': string } }>('/dev/studio/assets/*', async (req, reply) => {
      const rel = decodeURIComponent(req.params['*'] ?? '');
      const file = path.resolve(bundle, 'assets', rel);
      if (!file.startsWith(path.join(bundle, 'assets') + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
        return apiError(reply, 404, 'NOT_FOUND', 'No such asset');
      }
      return sendFile(reply, file, 'public, max-age=31536000, immutable');
    });

    app.get('/dev/studio/api/catalogue', async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const screensDir = path.join(root, 'screens');
      const screens = fs.readdirSync(screensDir).filter((f) => f.endsWith('.json')).sort().map((f) => ({
        id: path.basename(f, '.json'),
        text: fs.readFileSync(path.join(screensDir, f), 'utf8'),
      }));
      const localesDir = path.join(root, 'locales');
      const locales: Record<string, string> = {};
      const languages: string[] = [];
      for (const lang of fs.readdirSync(localesDir).sort()) {
        if (!fs.statSync(path.join(localesDir, lang)).isDirectory()) continue;
        languages.push(lang);
        for (const f of fs.readdirSync(path.join(localesDir, lang)).filter((n) => n.endsWith('.json')).sort()) {
          locales[`${lang}/${f}`] = fs.readFileSync(path.join(localesDir, lang, f), 'utf8');
        }
      }
      const metaSchema = JSON.parse(fs.readFileSync(path.join(root, 'schemas/screen.schema.json'), 'utf8')) as unknown;
      return { screens, locales, languages, metaSchema };
    });

    const bodyLimit = 4 * 1024 * 1024;
    app.post<{ Body: EditBody }>('/dev/studio/api/preview', { bodyLimit }, async (req, reply) => {
      // parseEdit checks every member: the body is untrusted JSON of any shape.
      const edit = parseEdit(req.body);
      if (typeof edit === 'string') return apiError(reply, 400, 'BAD_REQUEST', edit);
      reply.header('Cache-Control', 'no-store');
      return checkEdit(root, edit);
    });

    app.post<{ Body: EditBody }>('/dev/studio/api/save', { bodyLimit }, async (req, reply) => {
      if (!sameOrigin(req)) return apiError(reply, 403, 'FORBIDDEN', 'Cross-origin save refused');
      const edit = parseEdit(req.body);
      if (typeof edit === 'string') return apiError(reply, 400, 'BAD_REQUEST', edit);
      const { problems } = await checkEdit(root, edit);
      if (problems.length > 0) return reply.code(422).send({ saved: false, problems });
      const written: string[] = [];
      if (edit.screen !== undefined) {
        fs.writeFileSync(path.join(root, 'screens', `${edit.screenId}.json`), edit.screen);
        written.push(`screens/${edit.screenId}.json`);
      }
      for (const { lang, file, text } of edit.locales) {
        fs.mkdirSync(path.join(root, 'locales', lang), { recursive: true });
        fs.writeFileSync(path.join(root, 'locales', lang, file), text);
        written.push(`locales/${lang}/${file}`);
      }
      return { saved: true, written };
    });
  };
}

export default studioRoutes();
