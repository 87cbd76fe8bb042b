import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { SHELL_KEYS, type ShellData } from '../server/spa-shell';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '../src/app/languages';
import { htmlLang, textDirection } from '../src/lib/language-tags';
import { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from '../src/app/frame-facts';
import { theme as THEMES } from '../src/generated/lists';
import { brandMarkSvg } from '../src/ui/brand-mark';
import { EARLY_KEY, entryKey, screenKey, staticClosure, type Manifest } from './size/measure';

/**
 * Build output for fast static serving (server/spa.ts):
 * - `<file>.br` (brotli q11) and `<file>.gz` (gzip -9) beside every compressible file of the
 *   build, so the server never compresses an asset on a request;
 * - `.vite/preload.json`: per route of the catalogue, the chunks its first screen needs beyond
 *   the entry (screen chunk and its static imports), and per language the locale chunk — the
 *   server lists them as `<link rel="modulepreload">` in that route's HTML, so they download
 *   alongside the entry instead of after it has run; and the entry's CSS with its CSP hash, which the
 *   server inlines into every page (no render-blocking request racing the scripts on a slow network);
 * - `.vite/shell.json`: the texts of each route's static page frame and card (see ShellData).
 */
export interface PreloadMap {
  routes: Array<{ path: string; files: string[] }>;
  /** Files every route needs at start (response validators of the start-up calls). */
  common: string[];
  /** Language tag -> locale file -> its chunk ('index': the language's loader module). */
  locales: Record<string, Record<string, string>>;
  /** The early script (src/early.ts), loaded first by every page. */
  early?: string;
  /**
   * The entry's CSS: the server replaces index.html's `<link rel="stylesheet">` of each with a `<style>`
   * of the file's text, and style-src allows exactly that text by this hash ('sha256-…', computed here).
   */
  styles?: Array<{ href: string; hash: string }>;
}

/** The CSP source of an inline `<style>` whose text is `css`: the hash of its exact bytes. */
export function styleHash(css: string): string {
  return `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}`;
}

function textAt(tree: unknown, key: string): string | undefined {
  let node = tree;
  for (const part of key.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** `.vite/shell.json`: per route the card's heading key, per language the texts of the frame and of those headings. */
export function shellData(routes: Array<{ path: string; title: string; layout?: string }>, locales: Record<string, unknown>): ShellData {
  const keys = [...new Set([...SHELL_KEYS, ...routes.map((route) => route.title)])];
  const english = locales[DEFAULT_LANGUAGE];
  const texts = Object.fromEntries(
    Object.entries(locales).map(([lang, tree]) => [lang, Object.fromEntries(keys.map((key) => [key, textAt(tree, key) ?? textAt(english, key) ?? key]))]),
  );
  return {
    routes: routes.map(({ path, title, layout }) => ({ path, title, ...(layout ? { layout } : {}) })),
    texts,
    lang: Object.fromEntries(Object.keys(locales).map((lang) => [lang, htmlLang(lang)])),
    rtl: Object.keys(locales).filter((lang) => textDirection(lang) === 'rtl'),
    frame: { contactUrl: CONTACT_URL, copyrightFirstYear: COPYRIGHT_FIRST_YEAR, themes: [...THEMES], brandMark: brandMarkSvg() },
    languageCookie: LANGUAGE_COOKIE,
  };
}

const COMPRESSIBLE = /\.(js|mjs|css|svg|json|txt|map|xml|webmanifest|wasm|ttf|otf)$/;
/** Below this a compressed variant saves less than its extra bytes on disk and the lookup cost. */
const MIN_BYTES = 256;

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === '.vite' ? [] : filesUnder(full);
    return [full];
  });
}

export function preloadMap(
  manifest: Manifest,
  routes: Array<{ path: string; screenId: string }>,
  startup: string[],
  readAsset: (file: string) => string = () => '',
): PreloadMap {
  const entry = new Set(staticClosure(manifest, [entryKey(manifest)]));
  const url = (file: string) => `/${file}`;
  const locales: Record<string, Record<string, string>> = {};
  const common: string[] = [];
  for (const key of startup) {
    const chunk = manifest[key];
    if (!chunk || key.startsWith('src/generated/locales/')) continue;
    common.push(url(chunk.file));
  }
  // 'index' is the language's loader module (src/generated/locales/<lang>/index.ts), loaded before any file.
  for (const [key, chunk] of Object.entries(manifest)) {
    const [, lang, file] = /^src\/generated\/locales\/([^/]+)\/([^/]+)\.(?:json|ts)$/.exec(key) ?? [];
    if (lang && file) (locales[lang] ??= {})[file] = url(chunk.file);
  }
  const seen = new Set<string>();
  const out: PreloadMap['routes'] = [];
  for (const route of routes) {
    if (seen.has(route.path) || !manifest[screenKey(route.screenId)]) continue;
    seen.add(route.path);
    out.push({
      path: route.path,
      files: staticClosure(manifest, [screenKey(route.screenId)])
        .filter((f) => !entry.has(f))
        .map(url),
    });
  }
  const early = manifest[EARLY_KEY]?.file;
  const styles = (manifest[entryKey(manifest)]?.css ?? []).map((file) => ({ href: url(file), hash: styleHash(readAsset(file)) }));
  return { routes: out, common, locales, ...(early ? { early: url(early) } : {}), ...(styles.length ? { styles } : {}) };
}

export function staticFiles(options: { routesFile: string; budgetsFile: string; localesDir: string }): Plugin {
  let outDir = 'dist/app';
  return {
    name: 'frontdoor:static-files',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
      const routes = JSON.parse(readFileSync(options.routesFile, 'utf8')) as Array<{ path: string; screenId: string; title: string; layout?: string }>;
      const { startup } = JSON.parse(readFileSync(options.budgetsFile, 'utf8')) as { startup: string[] };
      writeFileSync(
        join(outDir, '.vite/preload.json'),
        JSON.stringify(
          preloadMap(manifest, routes, startup, (file) => readFileSync(join(outDir, file), 'utf8')),
          null,
          1,
        ),
      );
      const locales = Object.fromEntries(
        readdirSync(options.localesDir)
          .filter((file) => file.endsWith('.json'))
          .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(options.localesDir, file), 'utf8')) as unknown]),
      );
      writeFileSync(join(outDir, '.vite/shell.json'), JSON.stringify(shellData(routes, locales)));

      // index.html is not here: the server adds the route's preloads and compresses it once per route.
      const files = filesUnder(outDir).filter((file) => COMPRESSIBLE.test(file) && statSync(file).size >= MIN_BYTES);
      await Promise.all(
        files.map(async (file) => {
          const raw = readFileSync(file);
          const [br, gzipped] = await Promise.all([
            brotli(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length } }),
            gz(raw, { level: 9 }),
          ]);
          if (br.length < raw.length) writeFileSync(`${file}.br`, br);
          if (gzipped.length < raw.length) writeFileSync(`${file}.gz`, gzipped);
        }),
      );
      this.info?.(`precompressed ${files.length} files in ${relative(process.cwd(), outDir)}`);
    },
  };
}
