import type { InitOptions } from 'i18next';
import { DEFAULT_LANGUAGE } from '../platform/constants/limits';

/**
 * How every i18next instance of ours reads the texts of locales/ (the app's, the studio's preview of
 * an edited catalogue, the studio's own): one home for the options, so a preview shows what the app
 * would. Each instance adds its resources and language.
 */
export const I18N_OPTIONS = {
  fallbackLng: DEFAULT_LANGUAGE,
  // Our language tags are lower case (en-us); without this i18next looks for en-US.
  lowerCaseLng: true,
  // Keys are '<file>.<path>' ('login.fields.email'), one namespace.
  keySeparator: '.',
  nsSeparator: false,
  // React escapes text; i18next must not escape twice.
  interpolation: { escapeValue: false },
  returnNull: false,
} as const satisfies InitOptions;
