/**
 * frontdoor/validators — the ajv plugin of shared formats and keywords.
 *
 *   import addValidators from "frontdoor/validators";
 *   const ajv = addValidators(new Ajv());
 *
 * Every format and keyword works in ajv standalone code: formats are looked
 * up in the module named by `formatsModule` (opts.code.formats), keywords
 * generate code.
 */
import { _ } from "ajv";
import type { Ajv } from "ajv";
import type { KeywordDefinition } from "ajv";
import { formats, formatNames, type FormatName } from "./formats.js";
import { notBlank } from "./keywords/notBlank.js";

export * from "./formats.js";
export { messageKeyFor, enUsValidation, type MessageKey, type ErrorLike } from "./messages.js";
export { notBlank, type NotBlankError } from "./keywords/notBlank.js";

/** The module standalone code requires for format functions. */
export const DEFAULT_FORMATS_MODULE = "frontdoor/validators/formats";

/** Keyword definitions, by keyword name. */
export const keywords = {
  notBlank,
} as const satisfies Record<string, KeywordDefinition>;

/** Any ajv instance (Ajv, Ajv2019, Ajv2020, Fastify's). */
export type AjvLike = Pick<Ajv, "addFormat" | "addKeyword" | "getKeyword" | "opts">;

export type KeywordName = keyof typeof keywords;
export const keywordNames = Object.keys(keywords) as KeywordName[];

export interface ValidatorsOptions {
  /** Formats to register (default: all). An empty list registers none. */
  formats?: readonly FormatName[];
  /** Keywords to register (default: all). An empty list registers none. */
  keywords?: readonly KeywordName[];
  /**
   * Module that standalone code `require`s for the format functions
   * (default "frontdoor/validators/formats"). The app build may point it at
   * the source file instead.
   */
  formatsModule?: string;
  /** Name of the export of `formatsModule` that holds the formats object (default "formats"). */
  formatsExport?: string;
}

/** Registers the chosen formats and keywords on `ajv` and returns it. */
export function addValidators<T extends AjvLike>(ajv: T, options: ValidatorsOptions = {}): T {
  const formatList = options.formats ?? formatNames;
  const keywordList = options.keywords ?? keywordNames;
  if (formatList.length > 0) {
    const mod = options.formatsModule ?? DEFAULT_FORMATS_MODULE;
    const exportName = options.formatsExport ?? "formats";
    // Standalone code reads `<this>["<format>"]`. Overriding a value set by
    // ajv-formats is deliberate: our formats (email) replace theirs.
    ajv.opts.code.formats = _`require(${mod})[${exportName}]`;
    for (const name of formatList) {
      const check = formats[name];
      if (!check) throw new Error(`frontdoor/validators: unknown format "${String(name)}"`);
      ajv.addFormat(name, check);
    }
  }
  for (const name of keywordList) {
    const def = keywords[name];
    if (!def) throw new Error(`frontdoor/validators: unknown keyword "${String(name)}"`);
    if (!ajv.getKeyword(def.keyword as string)) ajv.addKeyword(def);
  }
  return ajv;
}

export default addValidators;
