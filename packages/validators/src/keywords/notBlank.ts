/**
 * `notBlank: true` — a string whose trim() is non-empty (SPEC §5 "Required
 * fields: trimmed non-empty"). `notBlank: false` imposes nothing.
 * Message key: validation.required (en-us: "Required").
 */
import { _ } from 'ajv';
import type { ErrorObject } from 'ajv';
import { defineKeyword, enUsMessage, stringSwitchSpec, type KeywordSpec } from './define.js';

export type NotBlankError = ErrorObject<'notBlank', Record<string, never>, boolean>;

export const notBlankSpec: KeywordSpec<boolean> = stringSwitchSpec('notBlank', (cxt) => _`${cxt.data}.trim() === ""`);

export const notBlank = defineKeyword(notBlankSpec, enUsMessage);
