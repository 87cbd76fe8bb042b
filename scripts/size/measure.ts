import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { IDLE_CHUNK } from '../../catalogue/build-contract.ts';

/**
 * First-load bytes per route, read from the vite manifest (dist/app/.vite/manifest.json).
 * A route's first load is what the browser must fetch before the screen is usable: the early script,
 * the entry chunk and its static imports, the screen's chunk and its static imports, their CSS and fonts,
 * plus the lazy modules every page loads at start (budgets.json "startup") and the locale files its
 * prerendered page shows first (firstTexts). Widget chunks a screen loads lazily are not in it.
 * Shared by scripts/size.ts (the report) and tests/perf/budgets.test.ts (the budget check).
 */
export interface ManifestChunk {
  file: string;
  src?: string;
  name?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
  css?: string[];
  assets?: string[];
}
export type Manifest = Record<string, ManifestChunk>;

export interface Sizes {
  raw: number;
  gzip: number;
  brotli: number;
}

export interface FileSize extends Sizes {
  file: string;
  kind: 'js' | 'css' | 'font' | 'other';
}

export interface RouteLoad {
  path: string;
  screenId: string;
  files: FileSize[];
  total: Sizes;
  byKind: Record<FileSize['kind'], Sizes>;
}

export interface Budgets {
  /** Lazy modules (manifest keys) every route loads at start-up. */
  startup: string[];
  /** First-load brotli bytes (JS + CSS + fonts) of a route not listed in routes. */
  defaultRoute: number;
  /** Per route path: first-load brotli bytes. */
  routes: Record<string, number>;
  /** Any single lazy chunk, brotli bytes. */
  lazyChunk: number;
}

export const APP_DIR = 'dist/app';

export function readManifest(appDir = APP_DIR): Manifest {
  const file = join(appDir, '.vite/manifest.json');
  if (!existsSync(file)) throw new Error(`${file} is missing: run npm run build first`);
  return JSON.parse(readFileSync(file, 'utf8')) as Manifest;
}

export function readBudgets(file = 'budgets.json'): Budgets {
  return JSON.parse(readFileSync(file, 'utf8')) as Budgets;
}

const cache = new Map<string, Sizes>();

/** raw, gzip -9 and brotli quality 11 (what the build precompresses and the server sends). */
export function sizesOf(bytes: Buffer): Sizes {
  return {
    raw: bytes.length,
    gzip: gzipSync(bytes, { level: 9 }).length,
    brotli: brotliCompressSync(bytes, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length },
    }).length,
  };
}

export function fileSizes(file: string, appDir = APP_DIR): FileSize {
  const key = join(appDir, file);
  let sizes = cache.get(key);
  if (!sizes) {
    sizes = sizesOf(readFileSync(key));
    cache.set(key, sizes);
  }
  return { file, kind: kindOf(file), ...sizes };
}

function kindOf(file: string): FileSize['kind'] {
  if (/\.m?js$/.test(file)) return 'js';
  if (file.endsWith('.css')) return 'css';
  if (/\.(woff2?|ttf|otf)$/.test(file)) return 'font';
  return 'other';
}

const add = (a: Sizes, b: Sizes): Sizes => ({ raw: a.raw + b.raw, gzip: a.gzip + b.gzip, brotli: a.brotli + b.brotli });
const zero = (): Sizes => ({ raw: 0, gzip: 0, brotli: 0 });

/** The page's entry (index.html's script). */
export function entryKey(manifest: Manifest): string {
  const key = manifest['index.html']?.isEntry ? 'index.html' : Object.keys(manifest).find((k) => manifest[k]?.isEntry && k !== EARLY_KEY);
  if (!key) throw new Error('the manifest has no entry chunk');
  return key;
}

/** The early script every page loads first, on its own (src/early.ts): part of every first load. */
export const EARLY_KEY = 'src/early.ts';

/**
 * The chunks the entry imports before anything renders, each compiled and run in a task of its own
 * (src/main.tsx): every page loads them, modulepreloaded (scripts/vite-static.ts). None since the
 * browser's react is Preact (vite.config.ts): react-dom was one, its 58 kB compiled apart from the app.
 */
export const ENTRY_STAGES: string[] = [];

/** The entries every page loads: the early script (when the build has one), the page's entry and its stages. */
export function entryKeys(manifest: Manifest): string[] {
  return [...(manifest[EARLY_KEY] ? [EARLY_KEY] : []), entryKey(manifest), ...ENTRY_STAGES.filter((key) => manifest[key])];
}

/** Files of the given manifest keys and everything they import statically (JS, CSS, fonts). */
export function staticClosure(manifest: Manifest, keys: string[]): string[] {
  const files = new Set<string>();
  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    seen.add(key);
    const chunk = manifest[key];
    if (!chunk) throw new Error(`"${key}" is not in the manifest`);
    files.add(chunk.file);
    for (const css of chunk.css ?? []) files.add(css);
    for (const asset of chunk.assets ?? []) if (kindOf(asset) === 'font') files.add(asset);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  keys.forEach(visit);
  return [...files];
}

/**
 * The idle-time chunks a route's page modulepreloads (catalogue/build-contract.ts IDLE_CHUNK): every
 * page's idle chunk and the chunk of each optional part its first steps show (routes.json `parts`).
 * They run only once the page is idle, so they are not in a route's first load (what hydrates it,
 * routeLoad), but they download with the page: the bytes by the load event count them (tests/perf).
 */
export function preloadedIdleKeys(manifest: Manifest, route: { parts?: string[] }): string[] {
  const names = new Set([IDLE_CHUNK, ...(route.parts ?? [])]);
  return Object.keys(manifest).filter((key) => key.startsWith('_') && names.has(manifest[key]?.name ?? ''));
}

export function screenKey(screenId: string): string {
  return `src/generated/screens/${screenId}.ts`;
}

/** The default language: its texts are what a route's first load counts. */
const TEXTS_LANGUAGE = 'en-us';

/**
 * The locale chunks a route loads before its first render: the one its prerendered page names
 * (dist/app/.vite/pages.json, scripts/prerender.ts; the server lists it in the page, no loader module
 * before it), else the language's loader module and all its texts.
 */
export function firstTexts(manifest: Manifest, path: string, appDir = APP_DIR): string[] {
  const prefix = `src/generated/locales/${TEXTS_LANGUAGE}/`;
  const all = [`${prefix}index.ts`, `${prefix}all.json`].filter((key) => manifest[key]);
  const pagesFile = join(appDir, '.vite/pages.json');
  if (!existsSync(pagesFile)) return all;
  const pages = JSON.parse(readFileSync(pagesFile, 'utf8')) as { routes: Array<{ path: string; screen?: { texts?: string[] } }> };
  const texts = pages.routes.find((route) => route.path === path)?.screen?.texts;
  const named = (texts ?? []).map((file) => `${prefix}${file}.json`).filter((key) => manifest[key]);
  return named.length > 0 ? named : all;
}

export function routeLoad(manifest: Manifest, route: { path: string; screenId: string; parts?: string[] }, budgets: Budgets, appDir = APP_DIR): RouteLoad {
  const keys = [...new Set([...entryKeys(manifest), screenKey(route.screenId), ...budgets.startup, ...firstTexts(manifest, route.path, appDir)])];
  const files = staticClosure(manifest, keys).map((file) => fileSizes(file, appDir));
  const byKind = { js: zero(), css: zero(), font: zero(), other: zero() };
  let total = zero();
  for (const f of files) {
    if (f.kind === 'other') continue;
    byKind[f.kind] = add(byKind[f.kind], f);
    total = add(total, f);
  }
  return { path: route.path, screenId: route.screenId, files, total, byKind };
}

/** Chunks that are not part of any route's first load: widgets, validators, other screens. */
export function lazyChunks(manifest: Manifest, firstLoadFiles: Set<string>, appDir = APP_DIR): Array<FileSize & { src: string }> {
  const out: Array<FileSize & { src: string }> = [];
  const seen = new Set<string>();
  for (const [key, chunk] of Object.entries(manifest)) {
    if (firstLoadFiles.has(chunk.file) || seen.has(chunk.file)) continue;
    seen.add(chunk.file);
    out.push({ src: chunk.src ?? key, ...fileSizes(chunk.file, appDir) });
  }
  return out.sort((a, b) => b.brotli - a.brotli);
}

export function budgetFor(budgets: Budgets, path: string): number {
  return budgets.routes[path] ?? budgets.defaultRoute;
}

/** One bundled module of an output chunk, from build/bundle-stats.json (the visualiser's raw data). */
export interface BundledModule {
  /** The output chunk (a file of dist/app). */
  chunk: string;
  /** The source module's id (a path, or a virtual module). */
  id: string;
  /** Its rendered size in the chunk, before minification. */
  renderedLength: number;
}

/** Every module of every output chunk, from the visualiser's raw data; none when the build wrote none. */
export function bundledModules(file = 'build/bundle-stats.json'): BundledModule[] {
  if (!existsSync(file)) return [];
  interface Node {
    name: string;
    uid?: string;
    children?: Node[];
  }
  const stats = JSON.parse(readFileSync(file, 'utf8')) as {
    tree: Node;
    nodeParts: Record<string, { renderedLength?: number; metaUid: string }>;
    nodeMetas: Record<string, { id: string }>;
  };
  const out: BundledModule[] = [];
  for (const chunk of stats.tree.children ?? []) {
    const walk = (node: Node) => {
      const part = node.uid ? stats.nodeParts[node.uid] : undefined;
      if (part) out.push({ chunk: chunk.name, id: stats.nodeMetas[part.metaUid]?.id ?? '', renderedLength: part.renderedLength ?? 0 });
      node.children?.forEach(walk);
    };
    walk(chunk);
  }
  return out;
}
