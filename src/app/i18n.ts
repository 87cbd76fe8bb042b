import i18next, { type i18n as I18n } from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, htmlLang, textDirection } from './languages';
import { I18N_OPTIONS } from './i18n-options';

/**
 * Text comes only from locales/<lang>/*.json, merged by the build into one resource per
 * language (key '<file>.<path>'). Each language is its own lazily loaded chunk.
 */
export { DEFAULT_LANGUAGE };

const resources = import.meta.glob<Record<string, unknown>>('../generated/locales/*.json', { import: 'default' });

export function availableLanguages(): string[] {
  return Object.keys(resources)
    .map((path) => path.replace(/^.*\/([^/]+)\.json$/, '$1'))
    .sort();
}

/** The first browser language we have, else en-us. */
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

/** Where the visitor's explicit language choice is kept across visits. */
const CHOSEN_KEY = 'fd-language';

/** The language the visitor chose with the switcher before, if still available. */
export function storedLanguage(available: readonly string[] = availableLanguages()): string | undefined {
  try {
    const stored = localStorage.getItem(CHOSEN_KEY)?.toLowerCase();
    return stored && available.includes(stored) ? stored : undefined;
  } catch {
    return undefined;
  }
}

export { htmlLang } from './languages';

async function load(lang: string): Promise<Record<string, unknown>> {
  const loader = resources[`../generated/locales/${lang}.json`];
  if (!loader) throw new Error(`No locale "${lang}"`);
  return loader();
}

export async function startI18n(lang: string): Promise<I18n> {
  const bundles: Record<string, { translation: Record<string, unknown> }> = {
    [DEFAULT_LANGUAGE]: { translation: await load(DEFAULT_LANGUAGE) },
  };
  if (lang !== DEFAULT_LANGUAGE) {
    try {
      bundles[lang] = { translation: await load(lang) };
    } catch {
      lang = DEFAULT_LANGUAGE;
    }
  }
  await i18next.use(initReactI18next).init({ ...I18N_OPTIONS, resources: bundles, lng: lang });
  showLanguage(lang);
  return i18next;
}

/** The page's lang (BCP 47) and dir (rtl for Arabic and Hebrew): screen readers, fonts and the logical CSS follow. */
function showLanguage(lang: string): void {
  document.documentElement.lang = htmlLang(lang);
  document.documentElement.dir = textDirection(lang);
}

/**
 * Switches the language in place (no reload): loads the language's chunk once, then re-renders
 * every translated text. The choice is remembered for the next visit.
 */
export async function switchLanguage(lang: string): Promise<void> {
  if (!availableLanguages().includes(lang)) return;
  if (!i18next.hasResourceBundle(lang, 'translation')) i18next.addResourceBundle(lang, 'translation', await load(lang));
  await i18next.changeLanguage(lang);
  showLanguage(lang);
  try {
    localStorage.setItem(CHOSEN_KEY, lang);
  } catch {
    /* storage blocked: the choice lasts for this page */
  }
}
