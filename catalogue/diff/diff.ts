import { diffScreen } from './screen';
import { diffTexts, textUses } from './texts';
import type { DiffInput, DiffItem, FileReader } from './types';

/**
 * The semantic diff of two versions of the catalogue (the module's door): what changed, in people's
 * words (./types.ts), for the files that differ. The studio shows it for a draft, a version, or any
 * two versions; the server computes it (server/routes/studio) from the files on each side.
 */
export type { CallRef, DiffInput, DiffItem, DiffKind, FileReader, Place, Target } from './types';

const SCREEN = /^screens\/([A-Za-z0-9]+)\.json$/;
const LOCALE = /^locales\/([^/]+)\/([A-Za-z0-9]+)\.json$/;

/** A file's parsed JSON: null when absent, undefined when it does not parse. */
function parsed(read: FileReader, path: string): unknown {
  const text = read(path);
  if (text === null) return null;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** The text at a dotted key in a side's locale files ('login.fields.email' in locales/<lang>/login.json). */
function textLookup(read: FileReader) {
  const files = new Map<string, unknown>();
  return (lang: string, key: string): string | undefined => {
    const [file = '', ...path] = key.split('.');
    const rel = `locales/${lang}/${file}.json`;
    if (!files.has(rel)) files.set(rel, parsed(read, rel));
    const value = path.reduce<unknown>(
      (node, part) => (node !== null && typeof node === 'object' && !Array.isArray(node) ? (node as Record<string, unknown>)[part] : undefined),
      files.get(rel),
    );
    return typeof value === 'string' ? value : undefined;
  };
}

export function diffCatalogue(input: DiffInput): DiffItem[] {
  const { before, after, defaultLanguage } = input;
  const texts = { before: textLookup(before), after: textLookup(after) };
  const label = (key: string | undefined, side: 'before' | 'after') => (key ? texts[side](defaultLanguage, key) : undefined);
  const paths = [...input.paths].sort((a, b) => Number(LOCALE.test(a)) - Number(LOCALE.test(b)) || a.localeCompare(b));
  const items: DiffItem[] = [];
  let uses: Record<'before' | 'after', ReturnType<typeof textUses>> | undefined;
  const usesOf = (side: 'before' | 'after') => {
    uses ??= {
      before: textUses(input.screens.map((id) => ({ id, file: parsed(before, `screens/${id}.json`) }))),
      after: textUses(input.screens.map((id) => ({ id, file: parsed(after, `screens/${id}.json`) }))),
    };
    return uses[side];
  };

  for (const path of paths) {
    const screen = SCREEN.exec(path);
    if (screen?.[1]) {
      const a = parsed(before, path);
      const b = parsed(after, path);
      // A side that does not parse cannot be compared part by part: the whole file changed.
      if (a === undefined || b === undefined) items.push({ kind: 'screen-other', screen: screen[1], pointers: [''] });
      else items.push(...diffScreen(screen[1], a, b, label));
      continue;
    }
    const locale = LOCALE.exec(path);
    if (!locale?.[1] || !locale[2]) continue;
    const [lang, file] = [locale[1], locale[2]];
    const a = parsed(before, path);
    const b = parsed(after, path);
    if (a === null) items.push({ kind: 'file-added', path });
    if (b === null) items.push({ kind: 'file-removed', path });
    for (const change of diffTexts(file, a ?? {}, b ?? {})) {
      const side = change.after === undefined ? 'before' : 'after';
      const fields = usesOf(side).fields(change.key);
      if (fields.length > 0 && change.before !== undefined && change.after !== undefined) {
        for (const field of fields) items.push({ kind: 'field-relabelled', ...field, lang, before: change.before, after: change.after });
        continue;
      }
      const kind = change.before === undefined ? 'text-added' : change.after === undefined ? 'text-removed' : 'text-changed';
      items.push({ kind, lang, ...change, uses: usesOf(side).places(change.key) });
    }
  }
  // A field whose label key changed is worded with its texts in the default language.
  return items.map((item) => (item.kind === 'field-relabelled' && item.lang === '' ? { ...item, lang: defaultLanguage } : item));
}
