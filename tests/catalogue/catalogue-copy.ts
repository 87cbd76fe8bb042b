/**
 * Throw-away copies of the catalogue (screens, schemas, locales) for the tests that break one thing
 * in it: the real catalogue is never touched, and the copies a test made are removed after it.
 */
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterEach } from 'vitest';
import { checkProject, type Problem } from '../../catalogue/check/check';
import { CheckCache } from '../../catalogue/check/files';

export const repo = resolve(__dirname, '../..');
export type Json = Record<string, any>;

/** What the checks of edits share: texts of the real catalogue and what derives from them (it never changes under them). */
const editCache = new CheckCache();

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A new copy of the catalogue; its root. */
export function copyCatalogue(): string {
  const dir = mkdtempSync(join(tmpdir(), 'frontdoor-catalogue-'));
  temps.push(dir);
  for (const part of ['screens', 'schemas', 'locales']) cpSync(join(repo, part), join(dir, part), { recursive: true });
  return dir;
}

/** Edits one JSON file of a copy in place, as a person would (two-space indent, final newline). */
export function edit(root: string, file: string, change: (doc: Json) => void): void {
  const path = join(root, file);
  const doc = JSON.parse(readFileSync(path, 'utf8')) as Json;
  change(doc);
  writeFileSync(path, `${JSON.stringify(doc, null, 2)}\n`);
}

/**
 * One file of the catalogue edited in memory (as `edit` writes it), and what the catalogue check finds
 * with that text in place of the file: the overlay the studio checks an unsaved edit with. The
 * checks share one CheckCache, so each costs what the edit touches, not the whole catalogue; the tests
 * that need the files on disk (a file missing, a folder removed) use copyCatalogue.
 */
export function checkEditedCopy(file: string, change: (doc: Json) => void): { text: string; problems: Problem[] } {
  const doc = JSON.parse(readFileSync(join(repo, file), 'utf8')) as Json;
  change(doc);
  const text = `${JSON.stringify(doc, null, 2)}\n`;
  return { text, problems: checkProject({ root: repo }, { cache: editCache, files: { [file]: text } }).problems };
}
