import i18next from 'i18next';
import texts from './locales/en-us.json';

/**
 * The studio's own UI texts (a developer tool, English only) live in studio/locales, keys only,
 * like the app's; they are not merged into the visitor locales, so visitors never download them.
 */
export const studioI18n = i18next.createInstance();
void studioI18n.init({
  resources: { 'en-us': { translation: texts } },
  lng: 'en-us',
  lowerCaseLng: true,
  keySeparator: '.',
  nsSeparator: false,
  interpolation: { escapeValue: false },
  initAsync: false,
});

export const st = studioI18n.t.bind(studioI18n);
