import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { escapePointer } from '../../catalogue/language/json-pointer';

/**
 * Where each text is shown, for a translator's notes: the screens that name its key (file and
 * JSON pointer: '/steps/credentials/uiSchema/email/ui:title' says it is the email field's label),
 * a key prefix of "ui:enumNames" (one text per option), and the code that names it literally.
 */
export function keyUsages(root: string, keys: Iterable<string>): Map<string, string[]> {
  const wanted = new Set(keys);
  const out = new Map<string, string[]>();
  const add = (key: string, where: string) => {
    const list = out.get(key) ?? [];
    if (!list.includes(where) && list.length < 6) list.push(where);
    out.set(key, list);
  };
  const screensDir = join(root, 'screens');
  const screenFiles = (dir: string): string[] =>
    readdirSync(dir).flatMap((name) => {
      const full = join(dir, name);
      return statSync(full).isDirectory() ? screenFiles(full) : name.endsWith('.json') ? [full] : [];
    });
  for (const file of existsSync(screensDir) ? screenFiles(screensDir) : []) {
    const name = relative(root, file);
    const visit = (node: unknown, pointer: string) => {
      if (typeof node === 'string') {
        if (wanted.has(node)) add(node, `${name} ${pointer}`);
        else if (pointer.endsWith('/ui:enumNames')) for (const key of wanted) if (key.startsWith(`${node}.`)) add(key, `${name} ${pointer} (one option)`);
      } else if (Array.isArray(node)) node.forEach((item, i) => visit(item, `${pointer}/${i}`));
      else if (node !== null && typeof node === 'object')
        for (const [key, value] of Object.entries(node)) if (key !== 'description') visit(value, `${pointer}/${escapePointer(key)}`);
    };
    try {
      visit(JSON.parse(readFileSync(file, 'utf8')), '');
    } catch {
      /* a broken screen file is the catalogue check's to report */
    }
  }
  const codeFiles = (dir: string): string[] =>
    existsSync(dir)
      ? readdirSync(dir).flatMap((name) => {
          const full = join(dir, name);
          if (statSync(full).isDirectory()) return name === 'generated' ? [] : codeFiles(full);
          return /\.tsx?$/.test(name) ? [full] : [];
        })
      : [];
  for (const file of [...codeFiles(join(root, 'src')), ...codeFiles(join(root, 'widgets'))]) {
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(/['"`]([a-zA-Z][\w-]*(?:\.[\w-]+)+)['"`]/g)) if (match[1] && wanted.has(match[1])) add(match[1], relative(root, file));
  }
  return out;
}
