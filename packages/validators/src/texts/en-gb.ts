/** Validation texts, en-gb: today the same as en-us (the Front Door app's locales/en-gb/validation.json holds the same). */
export { texts } from './en-us.js';
