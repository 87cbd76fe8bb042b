import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { SHELL_KEYS, type ShellData, type ShellRoute } from '../catalogue/build-contract';
import { DEFAULT_LANGUAGE, LANGUAGE_COOKIE } from '../src/app/languages';
import { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from '../src/app/frame-facts';
import { theme as THEMES } from '../src/generated/lists';
import { htmlLang, textDirection } from '../src/lib/language-tags';
import { brandMarkSvg } from '../src/ui/brand-mark';

/**
 * `.vite/shell.json`: the texts and facts of each route's static page frame and card, which the server
 * draws before the app's scripts arrive (server/spa/shell.ts). Written after the app's bundle
 * (tooling/app-build.ts), from the app's own modules: the Vite config imports none of them.
 */

function textAt(tree: unknown, key: string): string | undefined {
  let node = tree;
  for (const part of key.split('.')) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string' ? node : undefined;
}

/** Per route the card's heading key, per language the texts of the frame and of those headings. */
export function shellData(routes: ShellRoute[], locales: Record<string, unknown>): ShellData {
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

/** Writes `<outDir>/.vite/shell.json` from the generated route table and locales (src/generated). */
export function writeShellData(outDir: string, generatedDir = 'src/generated'): void {
  const routes = JSON.parse(readFileSync(join(generatedDir, 'routes.json'), 'utf8')) as ShellRoute[];
  const localesDir = join(generatedDir, 'locales');
  const locales = Object.fromEntries(
    readdirSync(localesDir)
      .filter((file) => file.endsWith('.json'))
      .map((file) => [file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(localesDir, file), 'utf8')) as unknown]),
  );
  writeFileSync(join(outDir, '.vite/shell.json'), JSON.stringify(shellData(routes, locales)));
}
