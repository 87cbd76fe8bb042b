/**
 * The build's output the pages are made from (dist/app): index.html, and in .vite/ the per-route
 * preload map (preload.json), the static frame's data (shell.json), the prerendered pages' manifest
 * (pages.json) with each language's pages (pages/<lang>.json), the plain forms (forms.json) and the
 * compiled texts of their answers (texts/<lang>.json). Read on first use and again whenever
 * index.html's mtime changes (a new build landed: tooling/app-build.ts swaps it in by renaming); a
 * part the build did not write (or a hand-made build in tests) is simply absent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { routeMatches } from '../../catalogue/language/routes.js';
import { translator, type TextTree, type TFunction } from '../../catalogue/language/texts.js';
import type { PreloadMap } from '../../catalogue/build-contract.js';
import { DEFAULT_LANGUAGE } from '../services/lists.js';
import type { ShellData, ShellRoute } from './shell.js';
import type { PagesManifest } from './pages.js';
import type { PlainForms } from './forms.js';
import { fileInside } from './static.js';

/** A route path as its matcher. */
export type RouteMatcher = { test(path: string): boolean };

/** A catalogue route pattern as a matcher: react-router's matching, as the app's router (catalogue/language/routes.ts). */
export function routePattern(pattern: string): RouteMatcher {
  return { test: (urlPath) => routeMatches(pattern, urlPath) };
}

/** A route of the prerendered pages' manifest. */
export type PageRoute = PagesManifest['routes'][number];

/** One CSS file of the entry as a <style>: the link of index.html it replaces, the block, and the build's hash of its text. */
export interface InlineStyle {
  link: RegExp;
  block: string;
  hash: string;
}

/** The build as last read. */
export interface BuildOutput {
  /** dist/app/index.html, every page's start. */
  readonly indexFile: string;
  /** Reads the build again if index.html changed since the last read; keeps the last read while index.html is missing. */
  refresh(): void;
  /** Whether dist/app has an index.html now. */
  isBuilt(): boolean;
  preload(): PreloadMap | undefined;
  shell(): ShellData | undefined;
  pages(): PagesManifest | undefined;
  forms(): PlainForms | undefined;
  /**
   * The entry's CSS as <style> blocks (a page paints without waiting for a stylesheet request that the
   * scripts' downloads slow down), each only when its text still has the build's hash.
   */
  inlineStyles(): readonly InlineStyle[];
  /** The hashes of those blocks: what the page's style-src allows (security/page-styles.ts). */
  styleHashes(): string[];
  /** The chunks the first screen of the path's route needs (preload.json), undefined for a path no route of it knows. */
  preloadFiles(urlPath: string): string[] | undefined;
  /** The static card of the path's route, else /login's: any other path ends on /login (the client router). */
  shellCard(urlPath: string): ShellRoute | undefined;
  /** The prerendered route the path is a page of. */
  pageRoute(urlPath: string): PageRoute | undefined;
  /** The route pattern the path is a page of (prerendered, framed or preloaded), or undefined for a path no route knows. */
  routeOf(urlPath: string): string | undefined;
  /** Whether the path is a page of the app: a route with a prerendered page or a static card. */
  isPage(urlPath: string): boolean;
  /** The markup inside #root of a prerendered page (.vite/pages/<lang>.json), by its key. */
  pageHtml(lang: string, key: string): string | undefined;
  /** The compiled texts of a language, the default language's behind them (a plain form's answers). */
  texts(lang: string): TFunction;
  /** Languages the build has texts for. */
  languages(): string[];
}

/** Everything read from one build; replaced as a whole when a new one lands. */
interface BuildState {
  builtAt: number;
  preload?: PreloadMap;
  inlineStyles: InlineStyle[];
  patterns: Array<{ pattern: RouteMatcher; path: string; files: string[] }>;
  shell?: ShellData;
  shellRoutes: Array<{ pattern: RouteMatcher; route: ShellRoute }>;
  pages?: PagesManifest;
  pageRoutes: Array<{ pattern: RouteMatcher; route: PageRoute }>;
  forms?: PlainForms;
  /** Each language's prerendered pages and compiled texts, read when first asked for. */
  pagesByLang: Map<string, Record<string, string>>;
  textsByLang: Map<string, TFunction>;
}

/** Before the first read: nothing (each server its own, as its per-language maps fill). */
const nothingRead = (): BuildState => ({
  builtAt: 0,
  inlineStyles: [],
  patterns: [],
  shellRoutes: [],
  pageRoutes: [],
  pagesByLang: new Map(),
  textsByLang: new Map(),
});

/** A JSON file of the build with what is derived from it, or undefined when it is missing or not as expected. */
function readBuildFile<T, R>(file: string, derive: (data: T) => R): { data: T; derived: R } | undefined {
  try {
    const data = JSON.parse(fs.readFileSync(file, 'utf8')) as T;
    return { data, derived: derive(data) };
  } catch {
    return undefined;
  }
}

/** The link vite writes into index.html for an entry CSS file. */
const stylesheetLink = (href: string) => new RegExp(`<link rel="stylesheet"(?: crossorigin)? href="${href.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}">`);

function inlineStylesOf(root: string, preload: PreloadMap | undefined): InlineStyle[] {
  return (preload?.styles ?? []).flatMap(({ href, hash }) => {
    const file = fileInside(root, href);
    const css = file ? fs.readFileSync(file, 'utf8') : undefined;
    // A file changed since the build (or gone) keeps its link: the policy allows no text it has not hashed.
    if (css === undefined || css.includes('</') || `sha256-${createHash('sha256').update(css, 'utf8').digest('base64')}` !== hash) return [];
    return [{ link: stylesheetLink(href), block: `<style>${css}</style>`, hash }];
  });
}

/** Everything of the build under root whose index.html has this mtime. */
function readBuild(root: string, builtAt: number): BuildState {
  const vite = path.join(root, '.vite');
  const forms = readBuildFile<PlainForms, undefined>(path.join(vite, 'forms.json'), () => undefined);
  // Without prerendered pages (or with a hand-made build in tests) a page is the static frame of shell.ts.
  const pages = readBuildFile(path.join(vite, 'pages.json'), (manifest: PagesManifest) =>
    manifest.routes.map((route) => ({ pattern: routePattern(route.path), route })),
  );
  // A build without the preload map (or a hand-made one in tests) is served as it is.
  const preload = readBuildFile(path.join(vite, 'preload.json'), (map: PreloadMap) =>
    map.routes.map((route) => ({ pattern: routePattern(route.path), path: route.path, files: route.files })),
  );
  const inlineStyles = inlineStylesOf(root, preload?.data);
  const shell = readBuildFile(path.join(vite, 'shell.json'), (data: ShellData) => data.routes.map((route) => ({ pattern: routePattern(route.path), route })));
  return {
    builtAt,
    ...(forms ? { forms: forms.data } : {}),
    ...(pages ? { pages: pages.data } : {}),
    pageRoutes: pages?.derived ?? [],
    ...(preload ? { preload: preload.data } : {}),
    patterns: preload?.derived ?? [],
    inlineStyles,
    ...(shell ? { shell: shell.data } : {}),
    shellRoutes: shell?.derived ?? [],
    pagesByLang: new Map(),
    textsByLang: new Map(),
  };
}

/** A language's prerendered pages (page key -> markup), or none. */
function readPages(root: string, lang: string): Record<string, string> {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, '.vite', 'pages', `${lang}.json`), 'utf8')) as Record<string, string>;
  } catch {
    return {};
  }
}

function readTexts(root: string, code: string): TextTree | undefined {
  try {
    return JSON.parse(fs.readFileSync(path.join(root, '.vite', 'texts', `${code}.json`), 'utf8')) as TextTree;
  } catch {
    return undefined;
  }
}

/** The build under root; `onNewBuild` runs when a new one is read (the pages built from the last one are stale). */
export function createBuildOutput(root: string, onNewBuild: () => void): BuildOutput {
  const indexFile = path.join(root, 'index.html');
  let state = nothingRead();
  const matching = <T extends { pattern: RouteMatcher }>(list: T[], urlPath: string) => list.find((candidate) => candidate.pattern.test(urlPath));
  return {
    indexFile,
    refresh() {
      let mtime: number;
      try {
        mtime = fs.statSync(indexFile).mtimeMs;
      } catch {
        return;
      }
      if (mtime === state.builtAt) return;
      onNewBuild();
      state = readBuild(root, mtime);
    },
    isBuilt: () => fs.existsSync(indexFile),
    preload: () => state.preload,
    shell: () => state.shell,
    pages: () => state.pages,
    forms: () => state.forms,
    inlineStyles: () => state.inlineStyles,
    styleHashes: () => state.inlineStyles.map((style) => style.hash),
    preloadFiles: (urlPath) => matching(state.patterns, urlPath)?.files,
    shellCard: (urlPath) => (matching(state.shellRoutes, urlPath) ?? state.shellRoutes.find((candidate) => candidate.route.path === '/login'))?.route,
    pageRoute: (urlPath) => matching(state.pageRoutes, urlPath)?.route,
    routeOf: (urlPath) =>
      matching(state.pageRoutes, urlPath)?.route.path ?? matching(state.shellRoutes, urlPath)?.route.path ?? matching(state.patterns, urlPath)?.path,
    isPage: (urlPath) => matching(state.pageRoutes, urlPath) !== undefined || matching(state.shellRoutes, urlPath) !== undefined,
    pageHtml(lang, key) {
      let byKey = state.pagesByLang.get(lang);
      if (!byKey) {
        byKey = readPages(root, lang);
        state.pagesByLang.set(lang, byKey);
      }
      return byKey[key];
    },
    texts(lang) {
      let t = state.textsByLang.get(lang);
      if (!t) {
        t = translator({ [lang]: readTexts(root, lang), [DEFAULT_LANGUAGE]: readTexts(root, DEFAULT_LANGUAGE) }, lang, DEFAULT_LANGUAGE);
        state.textsByLang.set(lang, t);
      }
      return t;
    },
    languages: () => (state.preload ? Object.keys(state.preload.locales) : state.shell ? Object.keys(state.shell.texts) : []),
  };
}
