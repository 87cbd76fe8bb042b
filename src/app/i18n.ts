import { createTexts, currentTexts, setTexts, type Texts, type TextTree } from '../lib/i18n';
import { DEFAULT_LANGUAGE, htmlLang, LANGUAGE_COOKIE, textDirection } from './languages';

/**
 * Text comes only from locales/<lang>/*.json, merged and compiled by the build into one resource per
 * language (key '<file>.<path>'; src/lib/i18n.tsx reads them). Each language is its own lazily
 * loaded chunk.
 */
export { DEFAULT_LANGUAGE };

const resources = import.meta.glob<TextTree>('../generated/locales/*.json', { import: 'default' });

export function availableLanguages(): string[] {
  return Object.keys(resources)
    .map((path) => path.replace(/^.*\/([^/]+)\.json$/, '$1'))
    .sort();
}

/** The first browser language we have, else en-us (server/spa.ts picks the same from Accept-Language). */
export function pickLanguage(preferred: readonly string[], available: readonly string[] = availableLanguages()): string {
  for (const raw of preferred) {
    const tag = raw.toLowerCase();
    if (available.includes(tag)) return tag;
    const base = tag.split('-')[0];
    const sameBase = available.find((lang) => lang.split('-')[0] === base);
    if (sameBase) return sameBase;
  }
  return DEFAULT_LANGUAGE;
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

const loaded: Record<string, TextTree> = {};

async function load(lang: string): Promise<TextTree> {
  const loader = resources[`../generated/locales/${lang}.json`];
  if (!loader) throw new Error(`No locale "${lang}"`);
  return (loaded[lang] ??= await loader());
}

/**
 * A language's texts. One chunk: the build completes every language with the English of a text not
 * translated yet (scripts/generate.ts). An unknown language is English.
 */
export async function loadTexts(lang: string): Promise<Texts> {
  try {
    await load(lang);
  } catch {
    lang = DEFAULT_LANGUAGE;
    await load(lang);
  }
  return createTexts(loaded, lang, DEFAULT_LANGUAGE);
}

/** Loads a language's texts and shows them. */
export async function startI18n(lang: string): Promise<void> {
  const texts = await loadTexts(lang);
  setTexts(texts);
  showLanguage(texts.language);
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
  setTexts(createTexts(loaded, lang, DEFAULT_LANGUAGE));
  showLanguage(lang);
  document.cookie = `${LANGUAGE_COOKIE}=${lang}; path=/; max-age=31536000; SameSite=Lax${window.location.protocol === 'https:' ? '; Secure' : ''}`;
}

/** The language the page shows now. */
export function currentLanguage(): string {
  return currentTexts().language;
}
