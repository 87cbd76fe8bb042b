import { createTexts, currentTexts, setTexts, type Texts, type TextTree } from '../lib/i18n';
import { DEFAULT_LANGUAGE, htmlLang, LANGUAGE_COOKIE, textDirection } from './languages';
import { pickLanguage as negotiate } from '../../catalogue/language/languages';

/**
 * Text comes only from locales/<lang>/*.json, merged and compiled by the build, one chunk per
 * language and locale file (key '<file>.<path>'; src/lib/i18n.tsx reads them). A page loads the
 * files its first state shows (the server names them: scripts/prerender.ts found them), the rest
 * once it is on screen; a language switch and every later screen wait for all of them.
 */
export { DEFAULT_LANGUAGE };

type FileLoaders = Record<string, () => Promise<{ default: TextTree }>>;
/** Per language, the module that loads each of its locale files (src/generated/locales/<lang>/index.ts, a small chunk). */
const indexes = import.meta.glob<FileLoaders>('../generated/locales/*/index.ts', { import: 'default' });
const chunks: Record<string, () => Promise<FileLoaders>> = {};
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

/** Loads locale files of a language (all of them without `files`); a file not known is skipped. */
async function load(lang: string, files?: readonly string[]): Promise<void> {
  const index = chunks[lang];
  if (!index) throw new Error(`No locale "${lang}"`);
  const byFile = await index();
  const tree = (loaded[lang] ??= {});
  await Promise.all(
    (files ?? Object.keys(byFile)).map(async (file) => {
      const loader = byFile[file];
      if (loader && tree[file] === undefined) tree[file] = (await loader()).default;
    }),
  );
}

/**
 * A language's texts: `files` of them (a page's first texts), else all. The build completes every
 * language with the English of a text not translated yet (scripts/generate.ts). An unknown language is English.
 */
export async function loadTexts(lang: string, files?: readonly string[]): Promise<Texts> {
  try {
    await load(lang, files);
  } catch {
    lang = DEFAULT_LANGUAGE;
    await load(lang, files);
  }
  return createTexts(loaded, lang, DEFAULT_LANGUAGE);
}

/** Loads a language's texts (`files` of them, else all) and shows them. */
export async function startI18n(lang: string, files?: readonly string[]): Promise<void> {
  const texts = await loadTexts(lang, files);
  setTexts(texts);
  showLanguage(texts.language);
}

let rest: Promise<void> | undefined;
/** All texts of the language shown (a page starts with its first texts): asked once the page is on screen, awaited by every later screen. */
export function allTexts(): Promise<void> {
  rest ??= load(currentTexts().language || DEFAULT_LANGUAGE).catch((error: unknown) => {
    rest = undefined;
    throw error;
  });
  return rest;
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
