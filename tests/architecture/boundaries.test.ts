import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cruise, type IConfiguration, type ICruiseResult } from 'dependency-cruiser';

/**
 * The import boundaries of docs/architecture.md, enforced by dependency-cruiser with the rules of
 * .dependency-cruiser.cjs: the real tree holds them, and a wrong import fails with its rule's name.
 */
const repo = resolve(__dirname, '../..');
const config = createRequire(import.meta.url)(join(repo, '.dependency-cruiser.cjs')) as IConfiguration;

function violations(result: ICruiseResult): string[] {
  return (result.summary.violations ?? []).map((v) => `${v.rule.name}: ${v.from} → ${v.to}`);
}

async function cruiseIn(root: string, dirs: string[], tsConfig?: string): Promise<ICruiseResult> {
  const previous = process.cwd();
  process.chdir(root);
  try {
    const options = {
      ...config.options,
      validate: true,
      ruleSet: { forbidden: config.forbidden },
      ...(tsConfig ? { tsConfig: { fileName: tsConfig } } : { tsConfig: undefined }),
    };
    const { output } = await cruise(dirs, options);
    return output as ICruiseResult;
  } finally {
    process.chdir(previous);
  }
}

/** What npm run deps:check cruises (package.json): all of our code, packages/ included. */
const CRUISED = ['src', 'widgets', 'studio', 'server', 'scripts', 'catalogue', 'packages'];

const temps: string[] = [];
afterAll(() => temps.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A tiny tree with one import a rule forbids. */
function treeWith(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-boundaries-'));
  temps.push(root);
  for (const [file, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, file)), { recursive: true });
    writeFileSync(join(root, file), text);
  }
  return root;
}

describe('import boundaries (dependency-cruiser)', { timeout: 120_000 }, () => {
  it('every rule has a name that says what it forbids, and a comment', () => {
    for (const rule of config.forbidden ?? []) {
      expect(rule.name).toMatch(/^[a-z]+(-[a-z]+)+$/);
      expect(rule.comment?.length ?? 0).toBeGreaterThan(20);
    }
  });

  it('docs/architecture.md lists every rule', () => {
    const doc = readFileSync(join(repo, 'docs/architecture.md'), 'utf8');
    for (const rule of config.forbidden ?? []) expect(doc, rule.name).toContain(`| \`${rule.name}\` |`);
  });

  it('the project holds them', async () => {
    const result = await cruiseIn(repo, CRUISED, 'tsconfig.json');
    expect(violations(result)).toEqual([]);
    // The cruise saw the tree, not an empty set.
    expect(result.summary.totalCruised).toBeGreaterThan(200);
  });

  const wrong: Array<[string, Record<string, string>, string]> = [
    [
      'engine-imports-no-app',
      { 'src/engine/x.ts': "import { site } from '../app/site';\nexport const y = site;\n", 'src/app/site.ts': 'export const site = 1;\n' },
      'src/engine/x.ts → src/app/site.ts',
    ],
    [
      'engine-imports-no-widgets',
      { 'src/engine/x.ts': "import { w } from '../../widgets/registry';\nexport const y = w;\n", 'widgets/registry.ts': 'export const w = 1;\n' },
      'src/engine/x.ts → widgets/registry.ts',
    ],
    [
      'api-client-knows-no-screens',
      { 'src/api/client.ts': "import { p } from '../engine';\nexport const y = p;\n", 'src/engine/index.ts': 'export const p = 1;\n' },
      'src/api/client.ts → src/engine/index.ts',
    ],
    [
      'server-shares-only-contracts-and-data',
      { 'server/routes/r.ts': "import { l } from '../../src/app/languages';\nexport const y = l;\n", 'src/app/languages.ts': 'export const l = 1;\n' },
      'server/routes/r.ts → src/app/languages.ts',
    ],
    [
      'ui-imports-no-engine-app-or-widgets',
      { 'src/ui/Button.ts': "import { h } from '../engine';\nexport const y = h;\n", 'src/engine/index.ts': 'export const h = 1;\n' },
      'src/ui/Button.ts → src/engine/index.ts',
    ],
    [
      'engine-has-one-door',
      { 'widgets/w.ts': "import { h } from '../src/engine/host';\nexport const y = h;\n", 'src/engine/host.ts': 'export const h = 1;\n' },
      'widgets/w.ts → src/engine/host.ts',
    ],
    [
      // A dynamic import counts like a static one (the studio server once loaded the check from scripts/ so).
      'server-imports-no-scripts',
      { 'server/routes/r.ts': "export const y = () => import('../../scripts/catalogue/check');\n", 'scripts/catalogue/check.ts': 'export const c = 1;\n' },
      'server/routes/r.ts → scripts/catalogue/check.ts',
    ],
    [
      'catalogue-imports-no-app',
      { 'catalogue/check/c.ts': "import { n } from '../../widgets/names';\nexport const y = n;\n", 'widgets/names.ts': 'export const n = 1;\n' },
      'catalogue/check/c.ts → widgets/names.ts',
    ],
    [
      'catalogue-language-runs-in-the-browser',
      { 'catalogue/language/l.ts': "import { readFileSync } from 'node:fs';\nexport const y = readFileSync;\n" },
      'catalogue/language/l.ts → fs',
    ],
    [
      'platform-imports-no-app',
      { 'src/platform/p.ts': "import { r } from '../app/return-to';\nexport const y = r;\n", 'src/app/return-to.ts': 'export const r = 1;\n' },
      'src/platform/p.ts → src/app/return-to.ts',
    ],
    [
      'widgets-call-operations-through-the-host',
      { 'widgets/duo/d.ts': "import { c } from '../../src/api/client';\nexport const y = c;\n", 'src/api/client.ts': 'export const c = 1;\n' },
      'widgets/duo/d.ts → src/api/client.ts',
    ],
    [
      'packages-stand-alone',
      { 'packages/p/src/i.ts': "import { c } from '../../../catalogue/c';\nexport const y = c;\n", 'catalogue/c.ts': 'export const c = 1;\n' },
      'packages/p/src/i.ts → catalogue/c.ts',
    ],
  ];
  for (const [rule, files, edge] of wrong) {
    it(`a wrong import fails with the rule's name: ${rule}`, async () => {
      const root = treeWith(files);
      expect(
        violations(
          await cruiseIn(
            root,
            CRUISED.filter((d) => Object.keys(files).some((f) => f.startsWith(`${d}/`))),
          ),
        ),
      ).toEqual([`${rule}: ${edge}`]);
    });
  }

  it('a cycle fails, dynamic imports and types included', async () => {
    const root = treeWith({
      'src/app/a.ts': "export const a = () => import('../platform/b');\n",
      'src/platform/b.ts': "import type { A } from './c';\nexport const b: A = 1;\n",
      'src/platform/c.ts': "import { a } from '../app/a';\nexport type A = number;\nexport const c = a;\n",
    });
    expect(violations(await cruiseIn(root, ['src']))).toContain('no-circular-imports: src/app/a.ts → src/platform/b.ts');
  });

  it('the server reaches no engine module, not even through others', async () => {
    const root = treeWith({
      'server/s.ts': "import { c } from '../catalogue/check/c';\nexport const y = c;\n",
      'catalogue/check/c.ts': "export const c = () => import('../../x/bridge');\n",
      'x/bridge.ts': "export { h } from '../src/engine/host';\n",
      'src/engine/host.ts': 'export const h = 1;\n',
    });
    expect(violations(await cruiseIn(root, ['server', 'catalogue', 'x', 'src']))).toContain(
      'server-never-reaches-the-engine: server/s.ts → src/engine/host.ts',
    );
  });

  it('the engine may use src/ui, and src/ui stays presentational', async () => {
    const root = treeWith({ 'src/engine/x.ts': "import { b } from '../ui/Button';\nexport const y = b;\n", 'src/ui/Button.ts': 'export const b = 1;\n' });
    expect(violations(await cruiseIn(root, ['src']))).toEqual([]);
  });
});
