/**
 * Business lists the server shares with the front end as data (schemas/defs/<name>.json, the
 * list is the enum): read once at start-up, never copied into code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths.js';

const DEFS_DIR = path.join(ROOT, 'schemas/defs');

function readDefs(name: string): { enum?: unknown; default?: unknown; pattern?: unknown } {
  return JSON.parse(fs.readFileSync(path.join(DEFS_DIR, `${name}.json`), 'utf8')) as { enum?: unknown; default?: unknown; pattern?: unknown };
}

export function readList(name: string): readonly string[] {
  const doc = readDefs(name);
  if (!Array.isArray(doc.enum) || !doc.enum.every((v) => typeof v === 'string')) throw new Error(`schemas/defs/${name}.json has no list of strings in "enum"`);
  return Object.freeze(doc.enum as string[]);
}

/** A list's "default", one of its values. */
export function readDefault(name: string): string {
  const { default: value } = readDefs(name);
  if (typeof value !== 'string' || !readList(name).includes(value)) throw new Error(`schemas/defs/${name}.json has no "default" among its values`);
  return value;
}

/** A definition's "pattern" (a JSON Schema regular expression, which JavaScript's RegExp reads the same way here). */
export function readPattern(name: string): RegExp {
  const { pattern } = readDefs(name);
  if (typeof pattern !== 'string') throw new Error(`schemas/defs/${name}.json has no "pattern"`);
  return new RegExp(pattern);
}

/** The UI languages (SPEC §3), and the one every other falls back to. */
export const LANGUAGES = readList('language');
export const DEFAULT_LANGUAGE = readDefault('language');
/** The themes (SPEC §3), and the theme of a site whose branding names none. */
export const THEMES = readList('theme');
export const DEFAULT_THEME = readDefault('theme');
/** A phone number in E.164 (schemas/defs/phone.json): what the phone form sends, what an SMS sender may be. */
export const E164 = readPattern('phone');
/** The MFA methods. */
export const MFA_METHODS = readList('mfaMethod');
/** Calling codes, '+' included, whose phones cannot receive SMS MFA (SPEC §9). */
export const SMS_UNSUPPORTED_CALLING_CODES = readList('smsUnsupportedCallingCode');
