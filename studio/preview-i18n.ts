import i18next, { type i18n } from 'i18next';
import { I18N_OPTIONS } from '../src/app/i18n-options';

/**
 * An i18next instance over the edited catalogue's texts (the check's merged locales), made as the
 * app makes its own: the preview renders with it, the simulator says what an outcome would show.
 */
export function previewI18n(locales: Record<string, Record<string, unknown>>, lang: string): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    resources: Object.fromEntries(Object.entries(locales).map(([language, texts]) => [language, { translation: texts }])),
    lng: lang,
    initAsync: false,
  });
  return instance;
}
