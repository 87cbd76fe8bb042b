/**
 * Business lists the server shares with the front end as data (schemas/defs/<name>.json, the
 * list is the enum): read once at start-up, never copied into code.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../paths.js';

const DEFS_DIR = path.join(ROOT, 'schemas/defs');

export function readList(name: string): readonly string[] {
  const doc = JSON.parse(fs.readFileSync(path.join(DEFS_DIR, `${name}.json`), 'utf8')) as { enum?: unknown };
  if (!Array.isArray(doc.enum) || !doc.enum.every((v) => typeof v === 'string')) throw new Error(`schemas/defs/${name}.json has no list of strings in "enum"`);
  return Object.freeze(doc.enum as string[]);
}

/** The UI languages (SPEC §3). */
export const LANGUAGES = readList('language');
/** The MFA methods. */
export const MFA_METHODS = readList('mfaMethod');
/** Calling codes, '+' included, whose phones cannot receive SMS MFA (SPEC §9). */
export const SMS_UNSUPPORTED_CALLING_CODES = readList('smsUnsupportedCallingCode');
