import fs from 'node:fs';
import path from 'node:path';

/**
 * The files the studio reads and writes: the catalogue's own (screens/*.json and locales/<lang>/*.json)
 * and nothing else. An edit names them; it is checked here before anything is read for it, and
 * written here, once, after the check found no problem.
 */
const SCREEN_ID = /^[a-z][a-zA-Z0-9]*$/;
const LANG = /^[a-z]{2,3}(-[a-z0-9]{2,8})*$/;
const LOCALE_FILE = /^[a-zA-Z][a-zA-Z0-9]*\.json$/;

/** What a preview or save request carries (untrusted JSON of any shape). */
export interface EditBody {
  screenId?: unknown;
  /** The screen file's full text, as typed (saved byte for byte). */
  screen?: unknown;
  /** "<lang>/<file>.json" to its full text. */
  locales?: unknown;
}

export interface Edit {
  screenId: string;
  screen?: string;
  locales: Array<{ lang: string; file: string; text: string }>;
}

/** Why an edit is refused: a malformed body (400) or a file that is not the catalogue's (403). */
export interface Refusal {
  status: 400 | 403;
  error: 'BAD_REQUEST' | 'FORBIDDEN';
  message: string;
}

/** The catalogue's files on disk: screen ids, and each language's locale files. */
export interface CatalogueListing {
  screens: string[];
  /** Language to its file names ('login.json'). */
  locales: Record<string, string[]>;
  /** The language every other falls back to: its files may be translated into any language. */
  defaultLanguage: string;
}

const jsonNames = (dir: string) =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((name) => name.endsWith('.json') && fs.statSync(path.join(dir, name)).isFile())
        .sort()
    : [];

export function listCatalogue(root: string): CatalogueListing {
  const localesDir = path.join(root, 'locales');
  const languages = fs.existsSync(localesDir)
    ? fs
        .readdirSync(localesDir)
        .filter((name) => fs.statSync(path.join(localesDir, name)).isDirectory())
        .sort()
    : [];
  const language = JSON.parse(fs.readFileSync(path.join(root, 'schemas/defs/language.json'), 'utf8')) as { default?: unknown };
  return {
    screens: jsonNames(path.join(root, 'screens')).map((name) => path.basename(name, '.json')),
    locales: Object.fromEntries(languages.map((lang) => [lang, jsonNames(path.join(localesDir, lang))])),
    // Without one (a broken defs file, which the check reports), no language's file is a copy to make.
    defaultLanguage: typeof language.default === 'string' ? language.default : '',
  };
}

/**
 * A locale file an edit may write: one that exists, or one a studio form creates — a language's
 * copy of a default-language file (a translation) or a screen's own texts file ('<screenId>.json').
 * Never a new language folder, never a file of any other name.
 */
function writableLocale(listing: CatalogueListing, lang: string, file: string): boolean {
  const files = listing.locales[lang];
  if (!files) return false;
  return files.includes(file) || (listing.locales[listing.defaultLanguage] ?? []).includes(file) || listing.screens.includes(path.basename(file, '.json'));
}

/** The edit a body asks for, when it is well formed and names only the catalogue's files. */
export function parseEdit(body: EditBody, listing: CatalogueListing): Edit | Refusal {
  const bad = (message: string): Refusal => ({ status: 400, error: 'BAD_REQUEST', message });
  const notOurs = (file: string): Refusal => ({
    status: 403,
    error: 'FORBIDDEN',
    message: `the studio writes only the catalogue's files: ${file} is none of them (existing screens/*.json and locales/<lang>/*.json, or a language's copy of one)`,
  });
  if (typeof body?.screenId !== 'string' || !SCREEN_ID.test(body.screenId)) return bad('screenId must name a screen (letters and digits)');
  if (!listing.screens.includes(body.screenId)) return notOurs(`screens/${body.screenId}.json`);
  if (body.screen !== undefined && typeof body.screen !== 'string') return bad('screen must be the file text');
  const locales: Edit['locales'] = [];
  if (body.locales !== undefined) {
    if (body.locales === null || typeof body.locales !== 'object' || Array.isArray(body.locales)) return bad('locales must map "<lang>/<file>.json" to text');
    for (const [key, text] of Object.entries(body.locales as Record<string, unknown>)) {
      const [lang = '', file = '', ...rest] = key.split('/');
      if (rest.length > 0 || !LANG.test(lang) || !LOCALE_FILE.test(file) || typeof text !== 'string') return bad(`bad locale entry "${key}"`);
      if (!writableLocale(listing, lang, file)) return notOurs(`locales/${lang}/${file}`);
      locales.push({ lang, file, text });
    }
  }
  return { screenId: body.screenId, screen: body.screen as string | undefined, locales };
}

export const isRefusal = (value: Edit | Refusal): value is Refusal => 'status' in value;

/** The edit's files by path relative to the root, as the check reads them in place of the files on disk. */
export function editedFiles(edit: Edit): Record<string, string> {
  return {
    ...(edit.screen !== undefined ? { [`screens/${edit.screenId}.json`]: edit.screen } : {}),
    ...Object.fromEntries(edit.locales.map(({ lang, file, text }) => [`locales/${lang}/${file}`, text])),
  };
}

/** Writes the edit (the only place the studio writes); the paths written, relative to the root. */
export function writeEdit(root: string, edit: Edit): string[] {
  const files = editedFiles(edit);
  for (const [rel, text] of Object.entries(files)) fs.writeFileSync(path.join(root, rel), text);
  return Object.keys(files);
}

/** A catalogue file's path relative to the root: a screen file or a language's locale file. */
const CATALOGUE_PATH = /^(screens\/[a-z][a-zA-Z0-9]*\.json|locales\/[a-z]{2,3}(-[a-z0-9]{2,8})*\/[a-zA-Z][a-zA-Z0-9]*\.json)$/;
export const isCataloguePath = (rel: string): boolean => CATALOGUE_PATH.test(rel);

/** The texts of every catalogue file on disk (the screen files and every language's locale files), by path. */
export function readCatalogueFiles(root: string): Record<string, string> {
  const listing = listCatalogue(root);
  const paths = [
    ...listing.screens.map((id) => `screens/${id}.json`),
    ...Object.entries(listing.locales).flatMap(([lang, files]) => files.map((file) => `locales/${lang}/${file}`)),
  ];
  return Object.fromEntries(paths.filter(isCataloguePath).map((rel) => [rel, fs.readFileSync(path.join(root, rel), 'utf8')]));
}

/**
 * Writes a version's or a change's files (null: the file goes; a version removes a locale file that
 * did not exist yet at the version restored). Only catalogue paths, and never a new language folder.
 */
export function writeFiles(root: string, files: Record<string, string | null>): string[] {
  for (const rel of Object.keys(files)) {
    if (!isCataloguePath(rel)) throw new Error(`not a catalogue file: ${rel}`);
    if (!fs.existsSync(path.dirname(path.join(root, rel)))) throw new Error(`no folder for ${rel}`);
  }
  for (const [rel, text] of Object.entries(files)) {
    const file = path.join(root, rel);
    if (text === null) fs.rmSync(file, { force: true });
    else fs.writeFileSync(file, text);
  }
  return Object.keys(files);
}
