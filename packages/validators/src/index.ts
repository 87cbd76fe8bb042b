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
import { setInUseChecker, type InUseChecker } from './inUseRegistry.js';
import { moduleCode } from './moduleCode.js';
import { integerRange } from './keywords/integerRange.js';
import { inUseKeyword } from './keywords/inUse.js';
import { limit } from './keywords/limit.js';
import { notBlank } from './keywords/notBlank.js';
import { passwordPolicy } from './keywords/passwordPolicy.js';
import { sameAs } from './keywords/sameAs.js';

export * from './formats.js';
export { messageKeyFor, enUsValidation, type MessageKey, type ErrorLike } from './messages.js';
export { notBlank, type NotBlankError } from './keywords/notBlank.js';
export { passwordPolicy, meetsPasswordPolicy, PASSWORD_MIN, PASSWORD_MAX, PASSWORD_MIN_CLASSES, type PasswordPolicyError } from './keywords/passwordPolicy.js';
export { integerRange, type IntegerRangeError } from './keywords/integerRange.js';
export { sameAs, type SameAsError } from './keywords/sameAs.js';
export { limit, limits, type LimitName, type LimitError } from './keywords/limit.js';
export { inUseKeyword, type InUseError } from './keywords/inUse.js';

/** The module standalone code requires for format functions and checkInUse. */
export const DEFAULT_FORMATS_MODULE = '@frontdoor/validators/formats';

/** Names of the keywords the plugin can register. */
export const keywordNames = ['notBlank', 'passwordPolicy', 'integerRange', 'sameAs', 'limit', 'inUse'] as const;
export type KeywordName = (typeof keywordNames)[number];

/** Keyword definitions by name (inUse bound to `formatsModule`). */
export function keywordDefinitions(formatsModule: string = DEFAULT_FORMATS_MODULE): Record<KeywordName, KeywordDefinition> {
  return { notBlank, passwordPolicy, integerRange, sameAs, limit, inUse: inUseKeyword(formatsModule) };
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
  /** The host's checker for the async `inUse` keyword (see setInUseChecker). */
  inUse?: InUseChecker;
}

function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((x, i) => x.toLowerCase() === b[i]);
}

/** Registers the chosen formats and keywords on `ajv` and returns it. */
export function addValidators<T extends AjvLike>(ajv: T, options: ValidatorsOptions = {}): T {
  const mod = options.formatsModule ?? DEFAULT_FORMATS_MODULE;
  const formatList = options.formats ?? formatNames;
  const keywordList = options.keywords ?? keywordNames;
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
    for (const name of formatList) {
      const check = name === 'url' && urlCheck ? urlCheck : formats[name];
      if (!check) throw new Error(`@frontdoor/validators: unknown format "${String(name)}"`);
      ajv.addFormat(name, check);
    }
  }
  const defs = keywordDefinitions(mod);
  for (const name of keywordList) {
    const def = defs[name];
    if (!def) throw new Error(`@frontdoor/validators: unknown keyword "${String(name)}"`);
    if (!ajv.getKeyword(name)) ajv.addKeyword(def);
  }
  if (options.inUse) setInUseChecker(options.inUse);
  return ajv;
}

export default addValidators;
