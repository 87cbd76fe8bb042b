/**
 * Facts of the page frame that are not texts (those are in locales/app.json): the app's Frame and
 * the server's static page (server/spa/shell.ts) both use them.
 */
export { COPYRIGHT_FIRST_YEAR } from '../platform/constants/limits';
export const CONTACT_URL = 'https://www.example.com/contact-us';
