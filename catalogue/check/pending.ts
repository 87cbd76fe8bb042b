import type { PendingTranslation as CheckedPending, Project } from './types';

/**
 * A text that exists in the default language (en-us) but not yet in some others is a pending
 * translation, not a mistake: visitors in those languages see the English text (i18next falls back
 * to en-us, src/app/i18n.ts) until a translator fills it in. The check lists them apart from its
 * problems (checkProject's `pending`); they never block a studio save or the build. This adds the
 * English text each one shows meanwhile, for the studio's list and its table of a text.
 */
export interface PendingTranslation extends CheckedPending {
  /** Its English text. */
  english: string;
}

/** The text at a dotted key, or its plural 'other' form. */
function textAt(locale: Record<string, unknown> | undefined, key: string): string {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  const parent = parts.reduce<unknown>(
    (node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined),
    locale,
  );
  if (parent === null || typeof parent !== 'object') return '';
  const value = (parent as Record<string, unknown>)[last] ?? (parent as Record<string, unknown>)[`${last}_other`];
  return typeof value === 'string' ? value : '';
}

export function withEnglish(project: Pick<Project, 'locales' | 'defaultLanguage'>, pending: readonly CheckedPending[]): PendingTranslation[] {
  const en = project.locales[project.defaultLanguage];
  return pending.map((entry) => ({ ...entry, english: textAt(en, entry.key) }));
}
