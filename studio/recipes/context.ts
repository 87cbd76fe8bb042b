import type { ScreenFile, SharedOutcomes } from '../../src/engine';
import type { CatalogueRoute } from '../../catalogue/studio-contract';
import type { Json, LocaleTexts } from './edits';
import { DEFAULT_LANGUAGE } from '../../src/app/studio-entry';

/** What every recipe form reads, and the one way it changes the files. */
export interface RecipeContext {
  screenId: string;
  /** The step the forms act on (the studio's Step choice). */
  step: string;
  /** The screen file as typed, and parsed. */
  screenText: string;
  raw: Json;
  /** The screen as the last clean check resolved it (calls, outcomes, steps). */
  resolved: ScreenFile | undefined;
  /** Merged texts per language ('<file>.<path>' keys) of the last check. */
  texts: Record<string, Json>;
  /** The current text of a locale file ("<lang>/<file>.json"), edits included. */
  localeFile(file: string): string | undefined;
  languages: string[];
  resultCodes: Record<string, string[]>;
  routes: CatalogueRoute[];
  outcomes: SharedOutcomes;
  /** Applies an edit to the screen and/or locale files and says what was done. */
  apply(edit: { screen?: string; locales?: LocaleTexts }, done: string): void;
  /** Opens the all-languages table of a text key. */
  showText(key: string): void;
}

const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** The UI schema entry of a field of the current step. */
export function uiOf(ctx: RecipeContext, name: string): Json {
  return obj(obj(obj(obj(ctx.raw.steps)[ctx.step]).uiSchema)[name]);
}

/** A field as a person knows it: its English label, then its name. */
export function fieldName(ctx: RecipeContext, name: string): string {
  const key = uiOf(ctx, name)['ui:title'];
  const english = typeof key === 'string' ? textIn(ctx, DEFAULT_LANGUAGE, key) : undefined;
  return english ? `${english} (${name})` : name;
}

/** The text of a key in a language, from the last check. */
export function textIn(ctx: Pick<RecipeContext, 'texts'>, lang: string, key: string): string | undefined {
  const value = key.split('.').reduce<unknown>((node, part) => obj(node)[part], ctx.texts[lang]);
  return typeof value === 'string' ? value : undefined;
}

/** The locale files a text edit reads: the one file of the key in each language. */
export function localeBase(ctx: Pick<RecipeContext, 'languages' | 'localeFile'>, key: string): LocaleTexts {
  const file = key.split('.')[0] ?? '';
  return Object.fromEntries(
    ctx.languages.flatMap((lang) => {
      const text = ctx.localeFile(`${lang}/${file}.json`);
      return text === undefined ? [] : [[`${lang}/${file}.json`, text]];
    }),
  );
}
