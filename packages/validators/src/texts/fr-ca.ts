/**
 * Validation texts, fr-ca: fr-fr's, with the Quebec word for e-mail ("courriel"). The Front Door
 * app's locales/fr-ca/validation.json holds the same.
 */
import type { ValidationTexts } from '../messages.js';
import { texts as frFr } from './fr-fr.js';

export const texts: ValidationTexts = {
  ...frFr,
  email: 'Adresse courriel non valide',
  emailInUse: 'Cette adresse courriel est déjà enregistrée.',
  format: { ...frFr.format, email: 'Adresse courriel non valide' },
};
