/**
 * The screen studio (registered with the other /dev tools, in demo mode only). It serves the studio's
 * own bundle (dist/studio, a separate vite build, so the visitor app does not grow) and a small API
 * over the catalogue:
 *   GET  /dev/studio                   the studio page (its own, looser CSP: see STUDIO_CSP)
 *   GET  /dev/studio/assets/*          its bundle
 *   GET  /dev/studio/api/catalogue     screen files and locale files as text, languages, result codes
 *   POST /dev/studio/api/preview       check an edit on a temporary copy; the resolved screen to render
 *   POST /dev/studio/api/save          the same check, then write screens/ and locales/ (only without problems)
 *   GET  /dev/studio/api/publish       whether the running app has the saved catalogue yet
 *   POST /dev/studio/api/publish       rebuild the running app from the files on disk
 * Every edit goes through checkProject on a temporary copy of screens/, schemas/ and locales/:
 * the files in the work tree are written only when the catalogue has no problems. Texts missing in
 * some languages but present in en-us are pending translations (scripts/catalogue/pending.ts): listed,
 * never blocking. After a save the app the server serves is rebuilt in a child process
 * (scripts/publish-app.ts) and swapped in, so the edit is live without a restart.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { ROOT } from '../paths.js';

const REPO = ROOT;

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
  /**
   * The built app the server serves, rebuilt after each save (default: the server's own staticDir,
   * when it runs inside the full app). Without one the studio says what to run instead.
   */
  appDir?: string;
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
  const { withEnglish } = await import('../../scripts/catalogue/pending.js');
  const syntax = await syntaxProblems(edit);
  // One syntax error is one problem: the rest of the catalogue is not checked against a file that
  // did not parse (every route to it would be reported missing); the studio keeps its last good view.
  if (syntax.length > 0) return { problems: syntax, pending: [], screen: null, routes: [], locales: {}, resultCodes: {} };
  const dir = copyWithEdit(root, edit);
  try {
    const checked = checkProject({ root: dir });
    const { project } = checked;
    const { problems } = checked;
    const pending = withEnglish(project, checked.pending);
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
      pending,
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

/** The first syntax error of each edited file, as a problem with its position. */
async function syntaxProblems(edit: Edit) {
  const { jsonSyntaxError } = await import('../../scripts/catalogue/positions.js');
  const files = [
    ...(edit.screen !== undefined ? [{ file: `screens/${edit.screenId}.json`, text: edit.screen }] : []),
    ...edit.locales.map(({ lang, file, text }) => ({ file: `locales/${lang}/${file}`, text })),
  ];
  return files.flatMap(({ file, text }) => {
    const error = jsonSyntaxError(text);
    return error ? [{ file, pointer: '', message: `invalid JSON: ${error.message}`, line: error.line, column: error.column }] : [];
  });
}

/** Where the running app stands against the files on disk. */
export interface PublishStatus {
  /** off: this server cannot rebuild its app (the studio says what to run); idle: nothing saved yet. */
  state: 'off' | 'idle' | 'running' | 'done' | 'failed';
  /** Counts finished rebuilds (a save during a rebuild is followed by one more before the state leaves running). */
  version: number;
  /** What to run by hand when the app cannot be rebuilt here (state off or failed). */
  command: string;
  /** The last lines of a failed rebuild. */
  output?: string;
}

const MANUAL = 'npm run build';

/**
 * Rebuilds the app into the directory the server serves (scripts/publish-app.ts in a child process,
 * one at a time; saves during a rebuild start one more afterwards). server/spa.ts picks up the new
 * index.html on the next request.
 */
function publisher(root: string, appDir: string | undefined) {
  let status: PublishStatus = { state: appDir ? 'idle' : 'off', version: 0, command: MANUAL };
  let again = false;
  const start = () => {
    if (!appDir) return;
    status = { ...status, state: 'running', output: undefined };
    // Without the server's NODE_ENV (e.g. 'test'), the bundle is the production build `npm run build` makes.
    const { NODE_ENV: _serverEnv, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/publish-app.ts'), appDir], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (ok: boolean) => {
      status = ok
        ? { state: 'done', version: status.version + 1, command: MANUAL }
        : { state: 'failed', version: status.version + 1, command: MANUAL, output: output.trim().split('\n').slice(-12).join('\n') };
      if (again) {
        again = false;
        start();
      }
    };
    child.on('error', (error) => {
      output += String(error);
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  };
  return {
    status: () => status,
    request: () => {
      if (status.state === 'running') again = true;
      else start();
      return status;
    },
  };
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
    // Inside the full server the app to rebuild is the one it serves (server/app.ts decorates app.fd).
    const appDir = options.appDir ?? (app.hasDecorator('fd') ? app.fd.config.staticDir : undefined);
    const publish = publisher(root, appDir);
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
      const screens = fs
        .readdirSync(screensDir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => ({
          id: path.basename(f, '.json'),
          text: fs.readFileSync(path.join(screensDir, f), 'utf8'),
        }));
      const localesDir = path.join(root, 'locales');
      const locales: Record<string, string> = {};
      const languages: string[] = [];
      for (const lang of fs.readdirSync(localesDir).sort()) {
        if (!fs.statSync(path.join(localesDir, lang)).isDirectory()) continue;
        languages.push(lang);
        for (const f of fs
          .readdirSync(path.join(localesDir, lang))
          .filter((n) => n.endsWith('.json'))
          .sort()) {
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
      const { problems, pending } = await checkEdit(root, edit);
      if (problems.length > 0) return reply.code(422).send({ saved: false, problems, pending });
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
      return { saved: true, written, pending, publish: written.length > 0 ? publish.request() : publish.status() };
    });

    app.get('/dev/studio/api/publish', async (_req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return publish.status();
    });
    app.post('/dev/studio/api/publish', async (req, reply) => {
      if (!sameOrigin(req)) return apiError(reply, 403, 'FORBIDDEN', 'Cross-origin publish refused');
      return publish.request();
    });
  };
}

export default studioRoutes();
