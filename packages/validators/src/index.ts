/**
 * @frontdoor/validators — the ajv plugin of shared formats and keywords.
 *
 *   import addValidators from "@frontdoor/validators";
 *   const ajv = addValidators(new Ajv());
 *
 * Every format and keyword works in ajv standalone code: formats are looked
 * up in the module named by `formatsModule` (ajv's opts.code.formats), and
 * keywords generate code. See README.md.
 */
import { _, stringify } from 'ajv';
import type { Code, CodeOptions, Format, KeywordDefinition } from 'ajv';
import { DEFAULT_URL_SCHEMES, urlWithSchemes } from './formats/url.js';
import { formats, formatNames, type FormatName } from './formats.js';
import { checkInUse, type InUseChecker } from './inUseRegistry.js';
import { guardFormats } from './guard.js';
import { DEFAULT_LANGUAGE, textsFor, type Language } from './languages.js';
import { messageFor, messageKeyFor } from './messages.js';
import { moduleCode } from './moduleCode.js';
import { defineKeyword, enUsMessage, type MessageOf } from './keywords/define.js';
import { integerRangeSpec } from './keywords/integerRange.js';
import { inUseKeyword } from './keywords/inUse.js';
import { limitSpec } from './keywords/limit.js';
import { notBlankSpec } from './keywords/notBlank.js';
import { passwordPolicySpec } from './keywords/passwordPolicy.js';
import { sameAsSpec } from './keywords/sameAs.js';

export * from './formats.js';
export { messageKeyFor, messageFor, interpolate, textOf, enUsValidation, type MessageKey, type ErrorLike, type ValidationTexts } from './messages.js';
export { validationTexts, languages, matchLanguage, textsFor, DEFAULT_LANGUAGE, type Language } from './languages.js';
export { notBlank, type NotBlankError } from './keywords/notBlank.js';
export { passwordPolicy, meetsPasswordPolicy, PASSWORD_MIN, PASSWORD_MAX, PASSWORD_MIN_CLASSES, type PasswordPolicyError } from './keywords/passwordPolicy.js';
export { integerRange, type IntegerRangeError } from './keywords/integerRange.js';
export { sameAs, type SameAsError } from './keywords/sameAs.js';
export { limit, limits, type LimitName, type LimitError } from './keywords/limit.js';
export { inUseKeyword, type InUseError } from './keywords/inUse.js';
export type { MessageOf } from './keywords/define.js';

/** The module standalone code requires for format functions and checkInUse. */
export const DEFAULT_FORMATS_MODULE = '@frontdoor/validators/formats';

/** Names of the keywords the plugin can register. */
export const keywordNames = ['notBlank', 'passwordPolicy', 'integerRange', 'sameAs', 'limit', 'inUse'] as const;
export type KeywordName = (typeof keywordNames)[number];

/**
 * Keyword definitions by name: inUse bound to `formatsModule` (and to `inUse`, the checker compiled
 * code calls); every error message made by `message` (default: en-us text).
 */
export function keywordDefinitions(
  formatsModule: string = DEFAULT_FORMATS_MODULE,
  message: MessageOf = enUsMessage,
  inUse?: (value: string, kind: string) => Promise<boolean>,
): Record<KeywordName, KeywordDefinition> {
  return {
    notBlank: defineKeyword(notBlankSpec, message),
    passwordPolicy: defineKeyword(passwordPolicySpec, message),
    integerRange: defineKeyword(integerRangeSpec, message),
    sameAs: defineKeyword(sameAsSpec, message),
    limit: defineKeyword(limitSpec, message),
    inUse: inUseKeyword(formatsModule, message, inUse),
  };
}

/**
 * What the plugin needs of an ajv instance: Ajv, Ajv2019, Ajv2020 and
 * Fastify's instance all fit. Structural, so the types hold with every ajv 8
 * release (8.12 has no named `Ajv` type export).
 */
export interface AjvLike {
  addFormat(name: string, format: Format): unknown;
  addKeyword(definition: KeywordDefinition): unknown;
  getKeyword(keyword: string): unknown;
  opts: { code: CodeOptions };
}

export interface ValidatorsOptions {
  /** Formats to register (default: all). An empty list registers none. */
  formats?: readonly FormatName[];
  /** Keywords to register (default: all). An empty list registers none. */
  keywords?: readonly KeywordName[];
  /**
   * Schemes the `url` format accepts (default http, https, ftp). javascript,
   * vbscript, data and file are refused with an error.
   */
  urlSchemes?: readonly string[];
  /**
   * Module that standalone code `require`s for the format functions and for
   * checkInUse (default "@frontdoor/validators/formats").
   */
  formatsModule?: string;
  /** Export of `formatsModule` that holds the formats object (default "formats"). */
  formatsExport?: string;
  /**
   * When opts.code.formats was already set (ajv-formats does this), standalone
   * code looks formats up in both modules, ours first (default true). Set
   * false to reference only `formatsModule`.
   */
  keepPreviousFormats?: boolean;
  /**
   * The checker of the async `inUse` keyword for this ajv instance (others keep theirs; standalone
   * code uses the process-wide one of setInUseChecker).
   */
  inUse?: InUseChecker;
  /**
   * Language of the keywords' `error.message`: one of `languages` ("de-de"), or a tag matched to one
   * ("de", "de-AT", "de_DE"); default "en-us". An unknown language throws.
   */
  language?: Language | (string & {});
  /** Put the i18n key ("validation.password") in `error.message` instead of text (1.x behaviour). */
  messageKeys?: boolean;
}

interface InstanceState {
  inUse?: InUseChecker;
}
/** Per ajv instance: its own inUse checker (a second instance never replaces the first's). */
const instances = new WeakMap<object, InstanceState>();

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x.toLowerCase() === b[i]);
}

function messageOf(options: ValidatorsOptions): MessageOf {
  if (options.messageKeys) return (error) => messageKeyFor(error).key;
  const language = options.language ?? DEFAULT_LANGUAGE;
  if (language === DEFAULT_LANGUAGE) return enUsMessage;
  const texts = textsFor(language); // throws on an unknown language
  return (error) => messageFor(error, texts);
}

/** Registers the chosen formats and keywords on `ajv` and returns it. */
export function addValidators<T extends AjvLike>(ajv: T, options: ValidatorsOptions = {}): T {
  if ((ajv.opts as { jtd?: boolean }).jtd) {
    throw new Error(
      '@frontdoor/validators: this ajv is in JTD mode (ajv/dist/jtd, RFC 8927), which has no formats and no keywords of its own; ' +
        'use Ajv, Ajv2019 or Ajv2020 with JSON Schema, or call the format functions (@frontdoor/validators/formats) yourself',
    );
  }
  const mod = options.formatsModule ?? DEFAULT_FORMATS_MODULE;
  const formatList = options.formats ?? formatNames;
  const keywordList = options.keywords ?? keywordNames;
  const message = messageOf(options);
  const schemes = options.urlSchemes && !sameList(options.urlSchemes, DEFAULT_URL_SCHEMES) ? options.urlSchemes : undefined;
  const urlCheck = schemes ? urlWithSchemes(schemes) : undefined; // throws on a forbidden scheme
  if (formatList.length > 0) {
    // Standalone code reads `<opts.code.formats>["<format>"]` for every
    // function format. When another plugin set it first (ajv-formats, as
    // rjsf does), merge: its formats keep working, ours (email) win.
    const load = moduleCode(ajv.opts.code.esm, mod);
    let ours: Code = _`${load}[${options.formatsExport ?? 'formats'}]`;
    if (schemes) ours = _`Object.assign({}, ${ours}, {url: ${load}.urlWithSchemes(${stringify(schemes)})})`;
    const prev = ajv.opts.code.formats;
    if (!prev || options.keepPreviousFormats === false) ajv.opts.code.formats = ours;
    else if (!prev.toString().includes(ours.toString())) ajv.opts.code.formats = _`Object.assign({}, ${prev}, ${ours})`;
    // Ours stay ours on this instance, also when ajv-formats comes later (Fastify adds it after the
    // plugins of its `ajv.plugins` option).
    const addOwnFormat = guardFormats(ajv, ajv.opts.code.formats === ours ? ours : undefined);
    for (const name of formatList) {
      const check = name === 'url' && urlCheck ? urlCheck : formats[name];
      if (!check) throw new Error(`@frontdoor/validators: unknown format "${String(name)}"`);
      addOwnFormat(name, check);
    }
  }
  let state = instances.get(ajv);
  if (!state) instances.set(ajv, (state = {}));
  if (options.inUse) state.inUse = options.inUse;
  const own = state;
  const inUse = async (value: string, kind: string): Promise<boolean> => (own.inUse ? !!(await own.inUse(value, kind)) : checkInUse(value, kind));
  const defs = keywordDefinitions(mod, message, inUse);
  for (const name of keywordList) {
    const def = defs[name];
    if (!def) throw new Error(`@frontdoor/validators: unknown keyword "${String(name)}"`);
    if (!ajv.getKeyword(name)) ajv.addKeyword(def);
  }
  return ajv;
}

export default addValidators;
