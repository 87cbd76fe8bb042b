import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The meta-schema is published for editors: VS Code reads "$schema" in each screen file (and
 * .vscode/settings.json) for completion, and shows "description" on hover. An undocumented
 * property is a blank hover, so each one must say what it does.
 */
const repo = resolve(__dirname, '../..');
const meta = JSON.parse(readFileSync(join(repo, 'schemas/screen.schema.json'), 'utf8')) as Record<string, unknown>;

function undocumented(node: unknown, at: string, out: string[]): string[] {
  if (node === null || typeof node !== 'object') return out;
  const n = node as Record<string, unknown>;
  for (const [name, sub] of Object.entries((n.properties as Record<string, unknown> | undefined) ?? {})) {
    if (typeof (sub as { description?: unknown }).description !== 'string') out.push(`${at}/properties/${name}`);
  }
  for (const [key, value] of Object.entries(n)) {
    if (key === 'enum' || key === 'default' || key === 'const') continue;
    // A "properties" map holds sub-schemas by name: walk each, not the map as if it were one.
    if (key === 'properties' && value !== null && typeof value === 'object') {
      for (const [name, sub] of Object.entries(value)) undocumented(sub, `${at}/properties/${name}`, out);
    } else undocumented(value, `${at}/${key}`, out);
  }
  return out;
}

describe('schemas/screen.schema.json for editors', () => {
  it('documents every property (hover docs)', () => {
    expect(undocumented(meta, '', [])).toEqual([]);
  });

  it('documents every definition', () => {
    const defs = Object.entries(meta.definitions as Record<string, { description?: string }>);
    expect(defs.filter(([, d]) => typeof d.description !== 'string').map(([name]) => name)).toEqual([]);
  });

  it('every screen file names it in "$schema"', () => {
    for (const name of readdirSync(join(repo, 'screens')).filter((f) => f.endsWith('.json'))) {
      const doc = JSON.parse(readFileSync(join(repo, 'screens', name), 'utf8')) as { $schema?: string };
      expect(doc.$schema, name).toBe('../schemas/screen.schema.json');
    }
  });

  it('.vscode/settings.json maps screens/ to it', () => {
    const settings = JSON.parse(readFileSync(join(repo, '.vscode/settings.json'), 'utf8')) as { 'json.schemas': Array<{ fileMatch: string[]; url: string }> };
    expect(settings['json.schemas']).toContainEqual({ fileMatch: ['/screens/*.json'], url: './schemas/screen.schema.json' });
  });
});
