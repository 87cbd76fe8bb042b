/**
 * Validation messages: i18n keys (messageKeyFor) and texts (messageFor).
 *
 * The keys live under the namespace "validation." (the key `validation.format.ipv4` is
 * `format.ipv4` in a texts object, the shape of a host app's validation.json). `messageKeyFor`
 * maps any ajv error, built-in keywords included, to its key and values; `messageFor` turns an
 * error into text in the language of the texts given (en-us by default). The plugin's own
 * keywords put that text in `error.message` (option `language`).
 * No ajv import, and only the en-us texts: `@frontdoor/validators/messages` is safe for a browser
 * bundle; other languages are `@frontdoor/validators/messages/<language>`.
 */
import { texts as enUs } from './texts/en-us.js';

type Widen<T> = { readonly [K in keyof T]: T[K] extends string ? string : Widen<T[K]> };

/** The texts of one language: the same keys as the en-us reference, each a string. */
export type ValidationTexts = Widen<typeof enUs>;

/** en-us texts of the "validation." namespace (SPEC §5, §8). */
export const enUsValidation = enUs;

export interface MessageKey {
  /** i18n key, e.g. "validation.required" */
  key: string;
  /** interpolation values for the key's text, e.g. { maxCount: 150 } */
  values: Record<string, unknown>;
}

/** An ajv ErrorObject, or an rjsf RJSFValidationError (which calls the keyword `name`). */
export interface ErrorLike {
  keyword?: string;
  name?: string;
  params?: unknown;
  message?: string;
}

const formatKeys: Readonly<Record<string, string>> = enUsValidation.format;

/** Keywords of this plugin; with the option messageKeys their error.message is the key. */
const ownKeywords = new Set(['notBlank', 'passwordPolicy', 'integerRange', 'inUse', 'sameAs', 'limit']);

/** Maps any ajv error (built-in keywords included) to an i18n key and its values. */
export function messageKeyFor(error: ErrorLike): MessageKey {
  const keyword = error.keyword ?? error.name ?? '';
  const p = (error.params ?? {}) as Record<string, unknown>;
  switch (keyword) {
    case 'required':
      return { key: 'validation.required', values: { field: p.missingProperty } };
    case 'notBlank':
      return { key: 'validation.required', values: {} };
    case 'minLength':
      return { key: 'validation.minLength', values: { minCount: p.limit } };
    case 'maxLength':
    case 'limit':
      return { key: 'validation.maxLength', values: { maxCount: p.limit } };
    case 'minItems':
      return { key: 'validation.minItems', values: { minCount: p.limit } };
    case 'maxItems':
      return { key: 'validation.maxItems', values: { maxCount: p.limit } };
    case 'minimum':
    case 'exclusiveMinimum':
      return { key: 'validation.minimum', values: { limit: p.limit } };
    case 'maximum':
    case 'exclusiveMaximum':
      return { key: 'validation.maximum', values: { limit: p.limit } };
    case 'format': {
      const name = String(p.format ?? '');
      if (name === 'email') return { key: 'validation.email', values: {} };
      if (name === 'mfa-code') return { key: 'validation.mfaCode', values: {} };
      if (Object.prototype.hasOwnProperty.call(formatKeys, name)) {
        return { key: `validation.format.${name}`, values: {} };
      }
      return { key: 'validation.invalid', values: { format: name } };
    }
    case 'passwordPolicy':
      return { key: 'validation.password', values: {} };
    case 'sameAs':
      return { key: 'validation.passwordsDoNotMatch', values: { field: p.field } };
    case 'integerRange':
      return { key: 'validation.integerRange', values: { min: p.min, max: p.max } };
    case 'inUse':
      return { key: p.kind === 'email' ? 'validation.emailInUse' : 'validation.inUse', values: { kind: p.kind } };
    default:
      if (ownKeywords.has(keyword) && typeof error.message === 'string' && error.message.startsWith('validation.')) {
        return { key: error.message, values: p };
      }
      return { key: 'validation.invalid', values: {} };
  }
}

/** Replaces each {{name}} (i18next style) with values[name]; unknown names stay as they are. */
export function interpolate(template: string, values: Readonly<Record<string, unknown>>): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (values[name] === undefined ? whole : String(values[name])));
}

/** The text of an i18n key ("validation.format.url") in `texts`, or undefined. */
export function textOf(key: string, texts: ValidationTexts = enUsValidation): string | undefined {
  let node: unknown = texts;
  for (const part of key.replace(/^validation\./, '').split('.')) {
    if (typeof node !== 'object' || node === null || !Object.prototype.hasOwnProperty.call(node, part)) return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** Any ajv error (or rjsf error) as text in the language of `texts` (default en-us). */
export function messageFor(error: ErrorLike, texts: ValidationTexts = enUsValidation): string {
  const { key, values } = messageKeyFor(error);
  return interpolate(textOf(key, texts) ?? texts.invalid, values);
}
