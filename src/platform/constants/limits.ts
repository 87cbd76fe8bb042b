/** Business constants and limits (SPEC §9). Times are milliseconds unless the name says otherwise. */
import { languageDefault, smsUnsupportedCallingCode, themeDefault } from '../../generated/lists';

/** Attachment limit: 20 MiB. */
export const twentyMiB = 20 * 1024 * 1024;

export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 72;
/** A password needs this many of the four classes (lower, upper, digit, symbol). */
export const PASSWORD_MIN_CLASSES = 3;
export const MFA_CODE_LENGTH = 6;
/** Phone confirmation for a password reset by text: the last 4 digits. */
export const PHONE_CONFIRMATION_DIGITS = 4;
export const EMAIL_INPUT_DEBOUNCE_MS = 250;
export const SMS_RESEND_DEBOUNCE_MS = 500;
export const DUO_POPUP_POLL_MS = 1000;
export const ACCOUNT_MOVED_REDIRECT_MS = 5000;
export const MESSAGE_AUTO_HIDE_MS = 5000;
export const LOGOUT_RETRY_MS = 3000;
export const BOT_CHECK_READY_RETRIES = 30;
export const BOT_CHECK_READY_INTERVAL_MS = 100;
export const NAME_MAX_LENGTH = 150;
export const ORGANIZATION_NAME_MAX_LENGTH = 1000;
export const DEFAULT_ITEM_MAX_LENGTH = 150;
/** Calling codes to which text messages cannot be sent (the list is schemas/defs/smsUnsupportedCallingCode.json). */
export const UNSUPPORTED_SMS_CALLING_CODES: readonly string[] = /* @__PURE__ */ Object.freeze(smsUnsupportedCallingCode.map((code) => code.replace(/^\+/, '')));
/** The language every other falls back to, and the theme of an unbranded site: schemas/defs/language.json and theme.json ("default"). */
export const DEFAULT_LANGUAGE = languageDefault;
export const DEFAULT_THEME = themeDefault;
export const TEAM_SIZE_OPTIONS: readonly string[] = Object.freeze(['1', '2-5', '6-15', '16-30', 'over30']);
export const ERROR_TRACE_SAMPLE_RATE = 0.01;
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;
export const PUBLIC_ASSET_BASE_PATH = '/';
export const COPYRIGHT_FIRST_YEAR = 2014;
export const LOGIN_CARD_WIDTH_PX = 450;

/** 'First–last' copyright years, e.g. 2014–2026. */
export function copyrightYears(now: Date = new Date()): string {
  return `${COPYRIGHT_FIRST_YEAR}–${now.getFullYear()}`;
}
