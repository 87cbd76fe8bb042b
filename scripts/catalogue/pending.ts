import { hasKey, type Problem, type Project } from './check';

/**
 * A text that exists in the default language (en-us) but not yet in some others is a pending
 * translation, not a mistake: visitors in those languages see the English text (i18next falls back
 * to en-us, src/app/i18n.ts) until a translator fills it in. Pending texts are listed, never block a
 * studio save or the build. A key missing in en-us too stays a problem (a typo, or a text nobody wrote).
 */
export interface PendingTranslation {
  /** The dotted key ('login.fields.companyCode'). */
  key: string;
  /** Its English text. */
  english: string;
  /** The languages that do not have it yet. */
  languages: string[];
}

const MISSING_KEY = /^i18n key "([^"]+)" is missing in /;

/** The text at a dotted key, or its plural 'other' form. */
function textAt(locale: Record<string, unknown> | undefined, key: string): string {
  const parts = key.split('.');
  const last = parts.pop() ?? '';
  const parent = parts.reduce<unknown>((node, part) => (node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined), locale);
  if (parent === null || typeof parent !== 'object') return '';
  const value = (parent as Record<string, unknown>)[last] ?? (parent as Record<string, unknown>)[`${last}_other`];
  return typeof value === 'string' ? value : '';
}

/**
 * Splits the check's problems into real problems and pending translations ('i18n key … is missing'
 * where en-us has the key). The pending list has one entry per key with every language it lacks.
 */
export function splitPending(project: Pick<Project, 'locales'>, problems: Problem[]): { problems: Problem[]; pending: PendingTranslation[] } {
  const en = project.locales['en-us'];
  const pendingKeys = new Set<string>();
  const kept = problems.filter((problem) => {
    const key = MISSING_KEY.exec(problem.message)?.[1];
    if (key === undefined || !en || !hasKey(en, key)) return true;
    pendingKeys.add(key);
    return false;
  });
  const pending = [...pendingKeys].sort().map((key) => ({
    key,
    english: textAt(en, key),
    languages: Object.keys(project.locales).filter((lang) => !hasKey(project.locales[lang] ?? {}, key)).sort(),
  }));
  return { problems: kept, pending };
}
