import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, posix, resolve } from 'node:path';
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
const CRUISED = ['src', 'widgets', 'studio', 'server', 'scripts', 'tooling', 'catalogue', 'packages', 'vite.config.ts', 'vite.studio.config.ts'];

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

  /** One import a rule forbids: `from` imports `to` (a file of the tiny tree, or a Node module), statically or by import(). */
  type Wrong = { rule: string; from: string; to: string; dynamic?: boolean };
  const wrong: Wrong[] = [
    { rule: 'engine-imports-no-app', from: 'src/engine/x.ts', to: 'src/app/site.ts' },
    { rule: 'engine-imports-no-widgets', from: 'src/engine/x.ts', to: 'widgets/registry.ts' },
    { rule: 'api-client-knows-no-screens', from: 'src/api/client.ts', to: 'src/engine/index.ts' },
    { rule: 'server-shares-only-contracts-and-data', from: 'server/routes/r.ts', to: 'src/app/languages.ts' },
    { rule: 'ui-imports-no-engine-app-or-widgets', from: 'src/ui/Button.ts', to: 'src/engine/index.ts' },
    { rule: 'engine-has-one-door', from: 'widgets/w.ts', to: 'src/engine/host.ts' },
    // A dynamic import counts like a static one (the studio server once loaded the check from scripts/ so).
    { rule: 'server-imports-no-scripts', from: 'server/routes/r.ts', to: 'scripts/catalogue/check.ts', dynamic: true },
    { rule: 'catalogue-imports-no-app', from: 'catalogue/check/c.ts', to: 'widgets/names.ts' },
    { rule: 'catalogue-language-runs-in-the-browser', from: 'catalogue/language/l.ts', to: 'fs' },
    { rule: 'platform-imports-no-app', from: 'src/platform/p.ts', to: 'src/app/return-to.ts' },
    { rule: 'widgets-call-operations-through-the-host', from: 'widgets/duo/d.ts', to: 'src/api/client.ts' },
    { rule: 'packages-stand-alone', from: 'packages/p/src/i.ts', to: 'catalogue/c.ts' },
    { rule: 'studio-reaches-the-app-through-its-entry', from: 'studio/Preview.ts', to: 'src/app/site.ts' },
    { rule: 'studio-reaches-the-app-through-its-entry', from: 'studio/Preview.ts', to: 'src/host/host-base.ts' },
    { rule: 'security-imports-no-page-serving', from: 'server/security/headers.ts', to: 'server/spa/serve.ts' },
    { rule: 'tooling-imports-no-scripts', from: 'tooling/app-build.ts', to: 'scripts/prerender.ts', dynamic: true },
    { rule: 'vite-config-imports-build-code-only', from: 'vite.config.ts', to: 'server/spa/shell.ts' },
    { rule: 'engine-imports-no-app', from: 'src/engine/x.ts', to: 'src/host/host-base.ts' },
    { rule: 'only-the-data-layer-reaches-the-database', from: 'server/services/s.ts', to: 'node_modules/pg/index.js' },
    { rule: 'data-layer-imports-no-server-code', from: 'server/db/store.ts', to: 'server/services/users.ts' },
    { rule: 'opentelemetry-is-server-ops-otel-only', from: 'server/ops/tracing.ts', to: 'node_modules/@opentelemetry/api/index.js' },
    { rule: 'opentelemetry-loads-on-demand', from: 'server/app.ts', to: 'server/ops/otel.ts' },
  ];
  /** The tiny tree of one wrong import: the importing file, and the imported one unless it is a Node module. */
  function filesOf({ from, to, dynamic }: Wrong): Record<string, string> {
    const pkg = /^node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(to)?.[1];
    if (pkg)
      return {
        [from]: `import * as m from '${pkg}';\nexport const y = m;\n`,
        [`node_modules/${pkg}/package.json`]: `{"name":"${pkg}","main":"index.js"}`,
        [to]: 'module.exports = {};\n',
      };
    if (!to.endsWith('.ts')) return { [from]: `import * as m from 'node:${to}';\nexport const y = m;\n` };
    const relative = posix.relative(posix.dirname(from), to).replace(/\.ts$/, '');
    const specifier = relative.startsWith('.') ? relative : `./${relative}`;
    const use = dynamic ? `export const y = () => import('${specifier}');\n` : `import * as m from '${specifier}';\nexport const y = m;\n`;
    return { [from]: use, [to]: 'export const x = 1;\n' };
  }
  for (const wrongImport of wrong) {
    it(`a wrong import fails with the rule's name: ${wrongImport.rule}`, async () => {
      const files = filesOf(wrongImport);
      const root = treeWith(files);
      const dirs = CRUISED.filter((d) => Object.keys(files).some((f) => f === d || f.startsWith(`${d}/`)));
      expect(violations(await cruiseIn(root, dirs))).toEqual([`${wrongImport.rule}: ${wrongImport.from} → ${wrongImport.to}`]);
    });
  }

  it('the control of opentelemetry-loads-on-demand: ops/tracing.ts importing otel.ts with import() passes', async () => {
    const root = treeWith({ 'server/ops/tracing.ts': "export const load = () => import('./otel');\n", 'server/ops/otel.ts': 'export const x = 1;\n' });
    expect(violations(await cruiseIn(root, ['server']))).toEqual([]);
  });

  it('a cycle fails, dynamic imports and types included', async () => {
    const root = treeWith({
      'src/app/a.ts': "export const a = () => import('../platform/b');\n",
      'src/platform/b.ts': "import type { A } from './c';\nexport const b: A = 1;\n",
      'src/platform/c.ts': "import { a } from '../app/a';\nexport type A = number;\nexport const c = a;\n",
    });
    expect(violations(await cruiseIn(root, ['src']))).toContain('no-circular-imports: src/app/a.ts → src/platform/b.ts');
  });

  it('a loop of folders fails though no module is in a cycle; the control: one direction passes', async () => {
    const loop = treeWith({
      'src/app/a.ts': "import { m } from '../mfa/m';\nexport const a = m;\n",
      'src/mfa/m.ts': "import { h } from '../host/h';\nexport const m = h;\n",
      'src/host/h.ts': 'export const h = 1;\n',
      'src/host/k.ts': "import { a } from '../app/b';\nexport const k = a;\n",
      'src/app/b.ts': 'export const a = 1;\n',
    });
    expect(violations(await cruiseIn(loop, ['src'])).filter((v) => v.startsWith('no-circular-imports'))).toEqual([]);
    expect(violations(await cruiseIn(loop, ['src'])).filter((v) => v.startsWith('no-folder-cycles')).length).toBeGreaterThan(0);
    const oneWay = treeWith({
      'src/app/a.ts': "import { m } from '../mfa/m';\nexport const a = m;\n",
      'src/mfa/m.ts': "import { h } from '../host/h';\nexport const m = h;\n",
      'src/host/h.ts': 'export const h = 1;\n',
    });
    expect(violations(await cruiseIn(oneWay, ['src']))).toEqual([]);
  });

  it('security code reaches no page serving, not even through others; the control: a shared module of its own is fine', async () => {
    const root = treeWith({
      'server/security/headers.ts': "import { p } from '../api-paths';\nimport { x } from '../helper';\nexport const h = [p, x];\n",
      'server/api-paths.ts': 'export const p = 1;\n',
      'server/helper.ts': "export { routePattern as x } from './spa/build';\n",
      'server/spa/build.ts': 'export const routePattern = 1;\n',
    });
    expect(violations(await cruiseIn(root, ['server']))).toEqual(['security-imports-no-page-serving: server/security/headers.ts → server/spa/build.ts']);
  });

  it('the studio may use the app through its entry', async () => {
    const root = treeWith({
      'studio/Preview.ts': "import { s } from '../src/app/studio-entry';\nexport const y = s;\n",
      'src/app/studio-entry.ts': 'export const s = 1;\n',
    });
    expect(violations(await cruiseIn(root, ['studio', 'src']))).toEqual([]);
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
