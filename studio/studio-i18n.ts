import i18next from 'i18next';
import { DEFAULT_LANGUAGE, I18N_OPTIONS } from '../src/app/studio-entry';
import texts from './locales/en-us.json';

/**
 * The studio's own UI texts (a developer tool, English only) live in studio/locales, keys only,
 * like the app's; they are not merged into the visitor locales, so visitors never download them.
 */
export const studioI18n = i18next.createInstance();
void studioI18n.init({ ...I18N_OPTIONS, resources: { [DEFAULT_LANGUAGE]: { translation: texts } }, lng: DEFAULT_LANGUAGE, initAsync: false });

export const st = studioI18n.t.bind(studioI18n);
