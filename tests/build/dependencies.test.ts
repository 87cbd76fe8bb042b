/**
 * A lean production install: package.json `dependencies` are exactly the packages the compiled server
 * and admin command import (dist/server/main.js and dist/server/admin/main.js, followed through every
 * relative import, dynamic ones included); build tools, the app's libraries and test tools are
 * devDependencies. runtime-stage.test.ts proves that this set starts the server. And nothing installed
 * asks for a newer Node than the project supports (the npm overrides of cookie and content-disposition).
 */
import fs from 'node:fs';
import path from 'node:path';
import semver from 'semver';
import { expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const IMPORT = /(?:^|[;\s])(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|(?:^|[;\s])import\s*['"]([^'"]+)['"]|\bimport\(\s*['"]([^'"]+)['"]\s*\)/gm;

/** Package names (`@scope/name` or `name`) imported from the entry points' module graph. */
function importedPackages(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const packages = new Set<string>();
  const visit = (file: string) => {
    if (seen.has(file)) return;
    seen.add(file);
    for (const m of fs.readFileSync(file, 'utf8').matchAll(IMPORT)) {
      const spec = (m[1] ?? m[2] ?? m[3]) as string;
      // An import written inside generated code's text (a template with `${…}`) is not one of this file's.
      if (spec.includes('${')) continue;
      if (spec.startsWith('.')) visit(path.resolve(path.dirname(file), spec));
      else if (!spec.startsWith('node:')) packages.add(spec.split('/').slice(0, spec.startsWith('@') ? 2 : 1).join('/'));
    }
  };
  for (const entry of entries) visit(path.join(ROOT, entry));
  return packages;
}

it('dependencies are exactly what the compiled server and admin command import', () => {
  const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { dependencies: Record<string, string> };
  const imported = [...importedPackages(['dist/server/main.js', 'dist/server/admin/main.js'])].sort();
  expect(Object.keys(pkg.dependencies).sort()).toEqual(imported);
});

it('every installed package admits Node 20.19, 22.13 and 24 (its engines field), production and development alike', () => {
  const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { engines?: { node?: string } }> };
  const refusing = Object.entries(lock.packages).flatMap(([name, entry]) => {
    const range = entry.engines?.node;
    if (range === undefined) return [];
    return ['20.19.0', '22.13.0', '24.0.0'].filter((node) => !semver.satisfies(node, range)).map((node) => `${name} (${range}) refuses Node ${node}`);
  });
  expect(refusing).toEqual([]);
});
