import i18next, { type i18n } from 'i18next';
import { I18N_OPTIONS } from '../src/app/studio-entry';
import { previewResources } from './preview-texts';

/**
 * An i18next instance over the edited catalogue's texts (the check's merged locales), made as the
 * app makes its own (ICU compiled, the pseudo-locale added): the preview renders with it, the simulator says what an outcome would show.
 */
export function previewI18n(locales: Record<string, Record<string, unknown>>, lang: string): i18n {
  const instance = i18next.createInstance();
  void instance.init({
    ...I18N_OPTIONS,
    resources: previewResources(locales),
    lng: lang,
    initAsync: false,
  });
  return instance;
}
