/**
 * The shapes of the build's output that the server reads (dist/app/.vite/): the build writes them
 * (scripts/vite-static.ts, tooling/shell-data.ts), the server serves pages from them (server/spa/build.ts,
 * server/spa/shell.ts). Types and one list of keys, so both sides share them without importing each
 * other (the Vite config imports no server code).
 */

/** Paths under which the server answers for itself, never with a page of the app: it routes them (server/security/requestPath.ts), `npm run dev`'s Vite proxies them to it. */
export const API_PREFIXES = ['/ws/', '/account/', '/expired-account/', '/branding/', '/dev/'];

/**
 * The build's chunk of what every page runs once it is idle (the operation client, the funnel's sender,
 * the experiments' texts; vite.config.ts): every page modulepreloads it, so its idle-time calls go out
 * at once instead of a round trip after a chunk's (issue 39). An optional content part a route's first
 * steps show (e.g. passkeySignIn) is a chunk named after the part, preloaded with that route's.
 */
export const IDLE_CHUNK = 'idle';

/** `.vite/preload.json`: per route and language, what a page lists as `<link rel="modulepreload">`. */
export interface PreloadMap {
  /** Per route of the catalogue, the chunks its first screen needs beyond the entry (screen chunk and its static imports). */
  routes: Array<{ path: string; files: string[] }>;
  /** Files every route needs at start (response validators of the start-up calls). */
  common: string[];
  /** Language tag -> locale file -> its chunk ('index': the language's loader module). */
  locales: Record<string, Record<string, string>>;
  /** The early script (src/early.ts), loaded first by every page. */
  early?: string;
  /**
   * The entry's CSS: the server replaces index.html's `<link rel="stylesheet">` of each with a `<style>`
   * of the file's text, and style-src allows exactly that text by this hash ('sha256-…', computed by the build).
   */
  styles?: Array<{ href: string; hash: string }>;
}

/**
 * `.vite/shell.json`, written by the build (tooling/shell-data.ts): the server shares data with the
 * front end, not code, so the frame's facts, the lang attributes, the themes and the product mark come with it.
 */
export interface ShellData {
  routes: ShellRoute[];
  /** Language -> i18n key -> text: SHELL_KEYS and each route's heading. */
  texts: Record<string, Record<string, string>>;
  /** Language -> its lang attribute (BCP 47; src/app/languages.ts htmlLang). */
  lang: Record<string, string>;
  /** Languages written right to left (src/app/languages.ts textDirection): their page has dir="rtl". */
  rtl: string[];
  /**
   * The frame's facts that are not texts (src/app/frame-facts.ts), the theme names the app knows
   * (src/app/themes.ts; the first is the default) and the product mark's markup (src/ui/brand-mark.ts).
   */
  frame: { contactUrl: string; copyrightFirstYear: number; themes: string[]; brandMark: string };
  /** The cookie that keeps the visitor's language choice (src/app/languages.ts): read before Accept-Language. */
  languageCookie?: string;
}

export interface ShellRoute {
  path: string;
  title: string;
  layout?: string;
}

/** The frame's own texts; each route's heading key comes on top. */
export const SHELL_KEYS = ['app.defaultTitle', 'app.copyright', 'app.contactUs', 'common.loading', 'common.noscript'];
