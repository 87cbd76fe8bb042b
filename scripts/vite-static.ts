import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';
import { EARLY_KEY, ENTRY_STAGES, entryKey, preloadedIdleKeys, screenKey, staticClosure, type Manifest } from './size/measure.ts';
import type { PreloadMap } from '../catalogue/build-contract';

/**
 * Build output for fast static serving (server/spa/):
 * - `<file>.br` (brotli q11) and `<file>.gz` (gzip -9) beside every compressible file of the
 *   build, so the server never compresses an asset on a request;
 * - `.vite/preload.json`: per route of the catalogue, the chunks its first screen needs beyond
 *   the entry (screen chunk and its static imports), and per language the locale chunk — the
 *   server lists them as `<link rel="modulepreload">` in that route's HTML, so they download
 *   alongside the entry instead of after it has run; and the entry's CSS with its CSP hash, which the
 *   server inlines into every page (no render-blocking request racing the scripts on a slow network);
 */
/** The CSP source of an inline `<style>` whose text is `css`: the hash of its exact bytes. */
export function styleHash(css: string): string {
  return `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}`;
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
  routes: Array<{ path: string; screenId: string; parts?: string[] }>,
  startup: string[],
  readAsset: (file: string) => string = () => '',
): PreloadMap {
  const entry = new Set(staticClosure(manifest, [entryKey(manifest)]));
  const url = (file: string) => `/${file}`;
  const locales: Record<string, Record<string, string>> = {};
  const common: string[] = [];
  // The entry's stages (react-dom) and what they import beyond the entry: every page's.
  const staged = ENTRY_STAGES.filter((key) => manifest[key]);
  for (const file of staticClosure(manifest, staged)) if (!entry.has(file) && !file.endsWith('.css')) common.push(url(file));
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
      // The screen's chunk, then what runs once the page is idle (its calls then go out at once, issue 39).
      files: staticClosure(manifest, [screenKey(route.screenId), ...preloadedIdleKeys(manifest, route)])
        .filter((f) => !entry.has(f))
        .map(url),
    });
  }
  const early = manifest[EARLY_KEY]?.file;
  const styles = (manifest[entryKey(manifest)]?.css ?? []).map((file) => ({ href: url(file), hash: styleHash(readAsset(file)) }));
  return { routes: out, common, locales, ...(early ? { early: url(early) } : {}), ...(styles.length ? { styles } : {}) };
}

export function staticFiles(options: { routesFile: string; budgetsFile: string }): Plugin {
  let outDir = 'dist/app';
  return {
    name: 'frontdoor:static-files',
    apply: 'build',
    configResolved(config) {
      outDir = config.build.outDir;
    },
    async closeBundle() {
      // A build that failed wrote no manifest: its own error says why.
      if (!existsSync(join(outDir, '.vite/manifest.json'))) return;
      const manifest = JSON.parse(readFileSync(join(outDir, '.vite/manifest.json'), 'utf8')) as Manifest;
      const routes = JSON.parse(readFileSync(options.routesFile, 'utf8')) as Array<{ path: string; screenId: string; parts?: string[] }>;
      const { startup } = JSON.parse(readFileSync(options.budgetsFile, 'utf8')) as { startup: string[] };
      writeFileSync(
        join(outDir, '.vite/preload.json'),
        JSON.stringify(
          preloadMap(manifest, routes, startup, (file) => readFileSync(join(outDir, file), 'utf8')),
          null,
          1,
        ),
      );
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
