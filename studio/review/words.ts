import { DEFAULT_LANGUAGE } from '../../src/app/studio-entry';
import { ApiError } from '../api';
import { st, studioI18n } from '../studio-i18n';

/** A refusal of the server in the studio's words (studio/locales "errors.<code>"), else its own message. */
export function errorWords(error: unknown): string {
  if (error instanceof ApiError) {
    const key = `errors.${error.code}`;
    const values = { files: (error.answer.conflicts ?? []).join(', '), count: error.answer.problems?.length ?? 0, revision: error.answer.revision };
    if (studioI18n.exists(key, values)) return st(key, values);
    return error.message;
  }
  return st('errors.network', { reason: String(error) });
}

const format = new Intl.DateTimeFormat(DEFAULT_LANGUAGE, { dateStyle: 'medium', timeStyle: 'short' });
/** A time of the history, in the studio's language. */
export const when = (at: number): string => format.format(new Date(at));
