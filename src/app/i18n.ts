import { createTexts, currentTexts, setTexts, type Texts, type TextTree } from '../lib/i18n';
import { DEFAULT_LANGUAGE, htmlLang, LANGUAGE_COOKIE, textDirection } from './languages';
import { pickLanguage as negotiate } from '../../catalogue/language/languages';

/**
 * Text comes only from locales/<lang>/*.json, merged and compiled by the build (key '<file>.<path>';
 * src/lib/i18n.tsx reads them), in two kinds of chunk per language (tooling/generate/data.ts): each
 * screen's first texts (`first-<screen>`: the frame's, the validation messages, the screen's own and
 * those its file names), and all of them (`all`). A prerendered page loads the chunk of its first texts
 * that the server names (one request, no loader module before it); every later screen, a language
 * switch and a page the app draws itself wait for all of them.
 */
export { DEFAULT_LANGUAGE };

/** A text chunk: locale file to its texts. */
type Bundle = Record<string, TextTree>;
type BundleLoaders = Record<string, () => Promise<{ default: Bundle }>>;
/** Per language, the module that loads its text chunks (src/generated/locales/<lang>/index.ts, a small chunk). */
const indexes = import.meta.glob<BundleLoaders>('../generated/locales/*/index.ts', { import: 'default' });
const chunks: Record<string, () => Promise<BundleLoaders>> = {};
for (const [path, loader] of Object.entries(indexes)) {
  const [, lang = ''] = /([^/]+)\/index\.ts$/.exec(path) ?? [];
  chunks[lang] = loader;
}

export function availableLanguages(): string[] {
  return Object.keys(chunks).sort();
}

/** The first browser language we have, else en-us (the server's rule for Accept-Language: catalogue/language/languages.ts). */
export function pickLanguage(preferred: readonly string[], available: readonly string[] = availableLanguages()): string {
  return negotiate(preferred, available, DEFAULT_LANGUAGE);
}

/** Where the visitor's explicit language choice is kept (./languages.ts). Choices made before the cookie are in localStorage under the same name and still count. */
export { LANGUAGE_COOKIE };

/** The language the visitor chose with the switcher before, if still available. */
export function storedLanguage(available: readonly string[] = availableLanguages()): string | undefined {
  const cookie = document.cookie
    .split(';')
    .map((part) => part.trim().split('='))
    .find(([name]) => name === LANGUAGE_COOKIE)?.[1];
  let stored = cookie?.toLowerCase();
  try {
    stored ??= localStorage.getItem(LANGUAGE_COOKIE)?.toLowerCase();
  } catch {
    /* storage blocked */
  }
  return stored && available.includes(stored) ? stored : undefined;
}

export { htmlLang } from './languages';

/** Each language's texts loaded so far, by locale file (translators read them at each call: a file added later is seen at once). */
const loaded: Record<string, TextTree> = {};

function adopt(lang: string, bundle: Bundle): void {
  const tree = (loaded[lang] ??= {});
  for (const [file, texts] of Object.entries(bundle)) tree[file] ??= texts;
}

/** Loads one of a language's text chunks through its loader module (`all` unless named). */
async function load(lang: string, bundle = 'all'): Promise<void> {
  const index = chunks[lang];
  if (!index) throw new Error(`No locale "${lang}"`);
  const loaders = await index();
  const loader = loaders[bundle] ?? loaders.all;
  if (!loader) throw new Error(`No texts "${bundle}" in locale "${lang}"`);
  adopt(lang, (await loader()).default);
}

/** A chunk the server named in the page (a built asset of this site: nothing else is imported). */
const TEXTS_FILE = /^\/assets\/[\w.-]+\.js$/;

/**
 * A language's texts: the chunk `file` the server named (a page's first texts, one request), else the
 * chunk `bundle`, else all. The build completes every language with the English of a text not
 * translated yet (tooling/generate/data.ts). An unknown language is English.
 */
export async function loadTexts(lang: string, first: { file?: string; bundle?: string } = {}): Promise<Texts> {
  const named = first.file && TEXTS_FILE.test(first.file) ? first.file : undefined;
  try {
    if (named) adopt(lang, ((await import(/* @vite-ignore */ named)) as { default: Bundle }).default);
    else await load(lang, first.bundle);
  } catch {
    lang = chunks[lang] ? lang : DEFAULT_LANGUAGE;
    await load(lang);
  }
  return createTexts(loaded, lang, DEFAULT_LANGUAGE);
}

/** Loads a language's texts (the page's first texts when named, else all) and shows them. */
export async function startI18n(lang: string, first?: { file?: string; bundle?: string }): Promise<void> {
  const texts = await loadTexts(lang, first);
  setTexts(texts);
  showLanguage(texts.language);
}

let rest: Promise<void> | undefined;
/** All texts of the language shown (a page starts with its first texts): awaited by every later screen, asked for by the prefetch during a call. */
export function allTexts(): Promise<void> {
  rest ??= load(currentTexts().language || DEFAULT_LANGUAGE).catch((error: unknown) => {
    rest = undefined;
    throw error;
  });
  return rest;
}

/** Resolves once a locale file's texts are in (the page's first texts may have them), loading all texts when not. */
export function textsOf(file: string): Promise<void> {
  return loaded[currentTexts().language]?.[file] !== undefined ? Promise.resolve() : allTexts();
}

/** The page's lang (BCP 47) and dir (rtl for Arabic and Hebrew): screen readers, fonts and the logical CSS follow. */
function showLanguage(lang: string): void {
  document.documentElement.lang = htmlLang(lang);
  document.documentElement.dir = textDirection(lang);
}

/**
 * Switches the language in place (no reload): loads the language's chunk once, then re-renders
 * every translated text. The choice is remembered for the next visit (a year).
 */
export async function switchLanguage(lang: string): Promise<void> {
  if (!availableLanguages().includes(lang)) return;
  await load(lang);
  rest = Promise.resolve();
  setTexts(createTexts(loaded, lang, DEFAULT_LANGUAGE));
  showLanguage(lang);
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** The language the page shows now. */
export function currentLanguage(): string {
  return currentTexts().language;
}
