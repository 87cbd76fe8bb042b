/** Validation texts, en-au: today the same as en-us (the Front Door app's locales/en-au/validation.json holds the same). */
export { texts } from './en-us.js';
