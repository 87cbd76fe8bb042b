import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseTree, type Node } from 'jsonc-parser';
import { escapePointer as escape } from '../language/json-pointer';

/**
 * The single edits a person makes by hand, applied one at a time to a catalogue file for the
 * checker's mutation test (tests/catalogue/mutation.test.ts): in every key and every string value,
 * a letter dropped, two letters swapped, a letter's case changed. Free text is left alone
 * (FREE_TEXT_KEYS): a changed note or regular expression is no broken reference.
 */
export interface Mutant {
  file: string;
  /** JSON Pointer of the key or value changed (for a key: the property it names). */
  pointer: string;
  target: 'key' | 'value';
  operator: 'drop' | 'swap' | 'case';
  before: string;
  after: string;
  /** The whole file with the change. */
  text: string;
}

/** Values that are prose or patterns, not names of something: notes for people and regular expressions. */
export const FREE_TEXT_KEYS = ['description', '$comment', 'pattern'];

/** The catalogue files a mutation run edits, relative to `root`: every screen file, in name order, and the shared outcomes. */
export function mutatedFiles(root: string): string[] {
  const screens = readdirSync(join(root, 'screens'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => `screens/${f}`);
  return [...screens, 'screens/shared/outcomes.json'];
}

/** The three edits of one string (those that change it). */
export function editsOf(text: string): Array<{ operator: Mutant['operator']; after: string }> {
  const out: Array<{ operator: Mutant['operator']; after: string }> = [];
  if (text.length === 0) return out;
  const mid = Math.floor(text.length / 2);
  out.push({ operator: 'drop', after: text.slice(0, mid) + text.slice(mid + 1) });
  // Swap the middle pair, or the first pair of two different characters from there on.
  for (let i = Math.max(0, mid - 1); i < text.length - 1; i += 1) {
    if (text[i] !== text[i + 1]) {
      out.push({ operator: 'swap', after: text.slice(0, i) + (text[i + 1] ?? '') + (text[i] ?? '') + text.slice(i + 2) });
      break;
    }
  }
  const letter = [...text].findIndex((c) => c.toLowerCase() !== c.toUpperCase());
  if (letter >= 0) {
    const c = text[letter] ?? '';
    out.push({ operator: 'case', after: text.slice(0, letter) + (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()) + text.slice(letter + 1) });
  }
  return out.filter((edit) => edit.after !== text);
}

/** Every mutant of one file's text. */
export function mutantsOf(file: string, text: string): Mutant[] {
  const tree = parseTree(text);
  if (!tree) return [];
  const out: Mutant[] = [];
  const replace = (node: Node, value: string) => text.slice(0, node.offset) + JSON.stringify(value) + text.slice(node.offset + node.length);
  const visit = (node: Node, pointer: string, key?: string) => {
    if (node.type === 'object') {
      for (const property of node.children ?? []) {
        const [name, value] = property.children ?? [];
        if (!name || typeof name.value !== 'string') continue;
        const at = `${pointer}/${escape(name.value)}`;
        for (const edit of editsOf(name.value))
          out.push({ file, pointer: at, target: 'key', operator: edit.operator, before: name.value, after: edit.after, text: replace(name, edit.after) });
        if (value) visit(value, at, name.value);
      }
    } else if (node.type === 'array') {
      (node.children ?? []).forEach((child, i) => visit(child, `${pointer}/${i}`, key));
    } else if (node.type === 'string' && typeof node.value === 'string' && !(key !== undefined && FREE_TEXT_KEYS.includes(key))) {
      for (const edit of editsOf(node.value))
        out.push({ file, pointer, target: 'value', operator: edit.operator, before: node.value, after: edit.after, text: replace(node, edit.after) });
    }
  };
  visit(tree, '');
  return out;
}
