/**
 * The languages of the validation texts: the 16 of the Front Door spec plus Arabic and Hebrew.
 * Imports every language (about 4 kB each): the plugin entry uses it for the option `language`;
 * a browser bundle imports `@frontdoor/validators/messages/<language>` instead.
 */
import type { ValidationTexts } from './messages.js';
import { texts as enUs } from './texts/en-us.js';
import { texts as enGb } from './texts/en-gb.js';
import { texts as enAu } from './texts/en-au.js';
import { texts as deDe } from './texts/de-de.js';
import { texts as frFr } from './texts/fr-fr.js';
import { texts as frCa } from './texts/fr-ca.js';
import { texts as esEs } from './texts/es-es.js';
import { texts as itIt } from './texts/it-it.js';
import { texts as ptBr } from './texts/pt-br.js';
import { texts as plPl } from './texts/pl-pl.js';
import { texts as nlNl } from './texts/nl-nl.js';
import { texts as nnNn } from './texts/nn-nn.js';
import { texts as svSv } from './texts/sv-sv.js';
import { texts as ruRu } from './texts/ru-ru.js';
import { texts as daDa } from './texts/da-da.js';
import { texts as jaJp } from './texts/ja-jp.js';
import { texts as ar } from './texts/ar.js';
import { texts as he } from './texts/he.js';

/** The language tags, lower case, as the Front Door app names them. */
export const languages = [
  'en-us',
  'en-gb',
  'en-au',
  'de-de',
  'fr-fr',
  'fr-ca',
  'es-es',
  'it-it',
  'pt-br',
  'pl-pl',
  'nl-nl',
  'nn-nn',
  'sv-sv',
  'ru-ru',
  'da-da',
  'ja-jp',
  'ar',
  'he',
] as const;
export type Language = (typeof languages)[number];

/** Every language's texts, keyed by language tag (typed: every language, none other). */
export const validationTexts: Readonly<Record<Language, ValidationTexts>> = {
  'en-us': enUs,
  'en-gb': enGb,
  'en-au': enAu,
  'de-de': deDe,
  'fr-fr': frFr,
  'fr-ca': frCa,
  'es-es': esEs,
  'it-it': itIt,
  'pt-br': ptBr,
  'pl-pl': plPl,
  'nl-nl': nlNl,
  'nn-nn': nnNn,
  'sv-sv': svSv,
  'ru-ru': ruRu,
  'da-da': daDa,
  'ja-jp': jaJp,
  ar: ar,
  he: he,
};
export const DEFAULT_LANGUAGE: Language = 'en-us';

/**
 * The supported language for a tag: exact ("de-de", "de_DE", "DE-de"), else the first of the same
 * primary language ("de" or "de-AT" → de-de, "en" → en-us, "pt-PT" → pt-br), else undefined.
 */
export function matchLanguage(tag: string): Language | undefined {
  const wanted = tag.trim().toLowerCase().replace(/_/g, '-');
  if ((languages as readonly string[]).includes(wanted)) return wanted as Language;
  const primary = wanted.split('-')[0];
  return languages.find((l) => l.split('-')[0] === primary);
}

/** The texts for a language tag (see matchLanguage); throws, naming the languages, for one it cannot match. */
export function textsFor(tag: string): ValidationTexts {
  const language = matchLanguage(tag);
  if (!language) throw new Error(`@frontdoor/validators: no texts for language "${tag}"; available: ${languages.join(', ')}`);
  return validationTexts[language];
}
