import { fieldOrder, labelKey } from './screen';
import type { Place } from './types';

/**
 * The texts side of the diff: locale files flattened to dotted keys ('login.fields.email'), and
 * where the catalogue's screens use a key (the steps naming it, and the fields whose label it is).
 */
type Json = Record<string, unknown>;
const obj = (value: unknown): Json => (value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Json) : {});

/** Every text of a locale file by its dotted key, prefixed with the file's name ('login'). */
export function flattenTexts(node: unknown, prefix: string, out: Record<string, string> = {}): Record<string, string> {
  for (const [key, value] of Object.entries(obj(node))) {
    const path = `${prefix}.${key}`;
    if (typeof value === 'string') out[path] = value;
    else if (value !== null && typeof value === 'object' && !Array.isArray(value)) flattenTexts(value, path, out);
    else out[path] = JSON.stringify(value);
  }
  return out;
}

export interface TextChange {
  key: string;
  before?: string;
  after?: string;
}

/** The keys of one locale file added, removed or changed. */
export function diffTexts(prefix: string, before: unknown, after: unknown): TextChange[] {
  const a = flattenTexts(before, prefix);
  const b = flattenTexts(after, prefix);
  const changes: TextChange[] = [];
  for (const key of new Set([...Object.keys(a), ...Object.keys(b)])) {
    if (a[key] === b[key]) continue;
    changes.push({ key, ...(key in a ? { before: a[key] } : {}), ...(key in b ? { after: b[key] } : {}) });
  }
  return changes;
}

/** A plural form's key names its text without the suffix ('codesLeft_one' is used as 'codesLeft'). */
const PLURAL = /_(zero|one|two|few|many|other)$/;

export interface TextUses {
  /** The steps (or, outside any step, the screens) whose file names the key. */
  places(key: string): Place[];
  /** The fields whose label the key is. */
  fields(key: string): Array<Place & { step: string; field: string }>;
}

/** Where each text key is used, over the parsed screen files. */
export function textUses(screens: ReadonlyArray<{ id: string; file: unknown }>): TextUses {
  const steps = screens.flatMap(({ id, file }) => {
    const screen = obj(file);
    const own = Object.entries(obj(screen.steps)).map(([step, spec]) => ({ id, step, spec: obj(spec), text: JSON.stringify(spec) }));
    const { steps: _steps, ...rest } = screen;
    return [...own, { id, step: undefined, spec: {}, text: JSON.stringify(rest) }];
  });
  const base = (key: string) => key.replace(PLURAL, '');
  return {
    places: (key) => {
      const quoted = JSON.stringify(base(key));
      const found = steps.filter((s) => s.text.includes(quoted)).map((s) => (s.step ? { screen: s.id, step: s.step } : { screen: s.id }));
      return found.filter((place, i) => found.findIndex((p) => p.screen === place.screen && p.step === place.step) === i);
    },
    fields: (key) =>
      steps.flatMap((s) =>
        s.step === undefined
          ? []
          : fieldOrder(s.spec)
              .filter((field) => labelKey(s.spec, field) === base(key))
              .map((field) => ({ screen: s.id, step: s.step as string, field })),
      ),
  };
}
