/**
 * The package as another team gets it: `npm pack` (prepack builds dist from a
 * copy of the source, so the working tree's dist is left alone), the tarball
 * installed next to ajv 8.12 and Fastify in a temporary project, then ES
 * module import, CommonJS require, TypeScript under nodenext, bundler and
 * node10 resolution, standalone code as ES module and CommonJS, a Fastify
 * route, and @arethetypeswrong's check of every entry point.
 *
 * Offline: the temporary project gets a package-lock.json made from this
 * repository's lock (ajv 8.12 is here as the devDependency alias
 * "ajv-8-12"), so `npm ci --offline` takes every package from the npm cache
 * that this repository's `npm ci` filled. Without such a cache it falls back
 * to --prefer-offline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { execFileSync, type ExecFileSyncOptions } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { enUsValidation, validationTexts } from '../src/index.js';

const pkgDir = fileURLToPath(new URL('..', import.meta.url));
const fixtures = fileURLToPath(new URL('./consumer/', import.meta.url));
const pkgRequire = createRequire(join(pkgDir, 'package.json'));
const tsc = pkgRequire.resolve('typescript/bin/tsc');
const modulesDir = join(dirname(pkgRequire.resolve('typescript/package.json')), '..');

/** The source files of the package (what a fresh clone has); `files` in package.json decides what ships. */
const version = (JSON.parse(readFileSync(join(pkgDir, 'package.json'), 'utf8')) as { version: string }).version;
const SOURCE = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'src', 'scripts', 'tsconfig.build.json', 'tsconfig.cjs.json', 'formats', 'messages'];

/** npm's own variables of the `npm test` that runs us would steer the nested npm; keep only the cache. */
function npmEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^npm_/i.test(k) || /^npm_config_(cache|userconfig|registry)$/i.test(k)) env[k] = v;
  return env;
}

function run(cmd: string, args: string[], cwd: string, options: ExecFileSyncOptions = {}): string {
  return execFileSync(cmd, args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: npmEnv(), timeout: 180_000, ...options }) as string;
}
const node = (file: string, cwd: string) => JSON.parse(run(process.execPath, [file], cwd).trim().split('\n').pop()!);

interface LockEntry {
  version?: string;
  dependencies?: Record<string, string>;
  optionalDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/**
 * A package-lock for the consumer: the closure of `roots` (consumer name → path in this
 * repository's lock) with this repository's exact versions and layout, resolved the way Node
 * resolves (nested node_modules first, then upwards).
 */
function consumerLock(repoLock: { packages: Record<string, LockEntry> }, roots: Record<string, string>): Record<string, LockEntry> {
  const all = repoLock.packages;
  const out: Record<string, LockEntry> = {};
  // repository path → consumer path; the roots are renamed (node_modules/ajv-8-12 → node_modules/ajv)
  const rename = (path: string) => {
    for (const [name, from] of Object.entries(roots)) if (path === from || path.startsWith(`${from}/`)) return `node_modules/${name}${path.slice(from.length)}`;
    return path;
  };
  const queue = Object.values(roots);
  while (queue.length > 0) {
    const path = queue.pop()!;
    const target = rename(path);
    if (out[target]) continue;
    const { dev: _dev, devOptional: _devOptional, peer: _peer, optional: _optional, ...entry } = all[path] ?? {};
    if (!entry.version) throw new Error(`${path} is not in package-lock.json`);
    out[target] = entry;
    for (const dep of Object.keys({ ...entry.dependencies, ...entry.optionalDependencies })) {
      // Node's lookup from `path`: path/node_modules/dep, then each parent's node_modules.
      let found: string | undefined;
      for (let base = path; !found;) {
        const candidate = `${base}/node_modules/${dep}`;
        if (all[candidate] && !Object.values(roots).includes(candidate)) found = candidate;
        const up = base.lastIndexOf('/node_modules/');
        if (up < 0) break;
        base = base.slice(0, up);
      }
      found ??= roots[dep] ?? (all[`node_modules/${dep}`] ? `node_modules/${dep}` : undefined);
      if (!found) {
        if (entry.optionalDependencies?.[dep]) continue;
        throw new Error(`${dep} (needed by ${path}) is not in package-lock.json`);
      }
      // (a dependency the consumer has at its top level, ajv, resolves to the consumer's own copy)
      queue.push(found);
    }
  }
  return out;
}

/** The repository's own package.json (the one beside its package-lock.json). */
function findRepoManifest(): { overrides?: Record<string, unknown> } {
  for (let dir = dirname(pkgDir); dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package-lock.json');
    if (existsSync(file)) return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
  }
  throw new Error('no package-lock.json above the package');
}

function findRepoLock(): { packages: Record<string, LockEntry> } {
  for (let dir = pkgDir; dir !== dirname(dir); dir = dirname(dir)) {
    const file = join(dir, 'package-lock.json');
    if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  }
  throw new Error('no package-lock.json above the package');
}

function du(dir: string): { files: number; bytes: number } {
  let files = 0;
  let bytes = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) {
      const sub = du(p);
      files += sub.files;
      bytes += sub.bytes;
    } else if (entry.isFile()) {
      files++;
      bytes += statSync(p).size;
    }
  }
  return { files, bytes };
}

interface PackResult {
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string }[];
}

let tmp = '';
let app = '';
let pack: PackResult;
let tarball = '';
let installMode = '';

// Each step runs node, npm or tsc: seconds each on a busy 2-core machine.
describe('the packed package in a consumer project (ajv 8.12)', { timeout: 120_000 }, () => {
  beforeAll(() => {
    tmp = mkdtempSync(join(tmpdir(), 'frontdoor-validators-consumer-'));
    // npm pack from a copy of the source: prepack builds its own dist there.
    const src = join(tmp, 'pkg');
    mkdirSync(src);
    for (const item of SOURCE) cpSync(join(pkgDir, item), join(src, item), { recursive: true });
    symlinkSync(modulesDir, join(src, 'node_modules'), 'dir');
    const out = run('npm', ['pack', '--json', '--pack-destination', tmp], src);
    pack = (JSON.parse(out.slice(out.indexOf('\n[') + 1 || out.indexOf('['))) as PackResult[])[0]!;
    tarball = join(tmp, pack.filename);

    app = join(tmp, 'app');
    mkdirSync(app);
    const repoLock = findRepoLock();
    const fastifyVersion = repoLock.packages['node_modules/fastify']!.version!;
    const dependencies = { '@frontdoor/validators': `file:../${pack.filename}`, ajv: '8.12.0', fastify: fastifyVersion };
    // The repository's overrides of packages in fastify's closure come along (light-my-request's cookie
    // kept on a release that runs on Node 20): the lock below has their versions, and npm ci checks them.
    const overrides = Object.fromEntries(Object.entries(findRepoManifest().overrides ?? {}).filter(([name]) => repoLock.packages[`node_modules/${name}`]));
    const manifest = { name: 'consumer', version: '1.0.0', private: true, dependencies, overrides };
    writeFileSync(join(app, 'package.json'), JSON.stringify(manifest, null, 2));
    const packages = consumerLock(repoLock, { ajv: 'node_modules/ajv-8-12', fastify: 'node_modules/fastify' });
    const ours = { version, resolved: `file:../${pack.filename}`, license: 'MIT', peerDependencies: { ajv: '^8' } };
    const lock = {
      name: 'consumer',
      version: '1.0.0',
      lockfileVersion: 3,
      requires: true,
      packages: { '': manifest, 'node_modules/@frontdoor/validators': ours, ...packages },
    };
    writeFileSync(join(app, 'package-lock.json'), JSON.stringify(lock, null, 2));
    const ci = ['ci', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];
    try {
      run('npm', [...ci, '--offline'], app);
      installMode = 'offline';
    } catch (error) {
      run('npm', [...ci, '--prefer-offline'], app);
      const why =
        String((error as { stderr?: string }).stderr ?? error)
          .split('\n')
          .find((line) => /ERR|error/.test(line)) ?? '';
      installMode = `prefer-offline; offline said: ${why}`;
    }
    for (const file of readdirSync(fixtures)) cpSync(join(fixtures, file), join(app, file));
  }, 300_000);

  afterAll(() => {
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('the tarball holds the built ES module and CommonJS code with types, and no sources or tests', () => {
    const files = pack.files.map((f) => f.path).sort();
    for (const f of ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'formats/package.json', 'messages/package.json', 'dist/cjs/package.json']) {
      expect(files, f).toContain(f);
    }
    for (const entry of ['index', 'formats', 'messages']) {
      for (const dir of ['esm', 'cjs']) expect(files).toEqual(expect.arrayContaining([`dist/${dir}/${entry}.js`, `dist/${dir}/${entry}.d.ts`]));
    }
    expect(
      files.filter((f) => !/^(dist\/(esm|cjs)\/|formats\/package\.json$|messages\/package\.json$|package\.json$|README\.md$|LICENSE$|CHANGELOG\.md$)/.test(f)),
    ).toEqual([]);
    expect(pack.size).toBeLessThan(150_000);
  });

  it(`installs next to the consumer's ajv 8.12 with no dependency of its own`, () => {
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/@frontdoor/validators/package.json'), 'utf8'));
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.peerDependencies).toEqual({ ajv: '^8' });
    expect(JSON.parse(readFileSync(join(app, 'node_modules/ajv/package.json'), 'utf8')).version).toBe('8.12.0');
    expect(existsSync(join(app, 'node_modules/@frontdoor/validators/node_modules'))).toBe(false);
    const size = du(join(app, 'node_modules/@frontdoor/validators'));
    console.log(`consumer install (${installMode}): @frontdoor/validators ${size.files} files, ${size.bytes} bytes; tarball ${pack.size} bytes`);
  });

  it('imports as an ES module', () => {
    expect(node('esm.mjs', app)).toEqual({
      ajv: 'Ajv',
      good: true,
      bad: false,
      keys: ['validation.email', 'validation.format.url', 'validation.password', 'validation.required'],
      messages: [enUsValidation.password, 'Required'],
      hebrew: true,
      languages: 18,
      sameDefault: true,
      sameFunctions: true,
      oneByOne: true,
      text: 'Enter a valid URL.',
      inUse: [true, false, true],
      jtd: true,
    });
  });

  it('requires as CommonJS', () => {
    expect(node('cjs.cjs', app)).toEqual({
      good: true,
      bad: false,
      keys: ['validation.format.hostname', 'validation.format.url', 'validation.integerRange'],
      french: true,
      sameDefault: true,
      sameFunctions: true,
      oneByOne: true,
    });
  });

  it.each([
    ['nodenext', { module: 'nodenext', moduleResolution: 'nodenext' }, ['types.mts', 'types.cts']],
    ['bundler', { module: 'esnext', moduleResolution: 'bundler' }, ['types.mts']],
    ['node10', { module: 'commonjs', moduleResolution: 'node10' }, ['types.cts']],
  ])('type-checks with tsc under %s resolution', (name, options, files) => {
    const config = { compilerOptions: { ...options, target: 'es2022', strict: true, noEmit: true, types: [], skipLibCheck: false }, files };
    writeFileSync(join(app, `tsconfig.${name}.json`), JSON.stringify(config));
    expect(() => run(process.execPath, [tsc, '-p', `tsconfig.${name}.json`], app)).not.toThrow();
  });

  it('runs standalone code as an ES module and as CommonJS', () => {
    const verdicts = { good: true, bad: false, errors: 7, free: 'free', taken: 'inUse' };
    // In the ES module, only ajv's own runtime is required; the plugin's parts are imported.
    expect(node('standalone.mjs', app)).toEqual({ cjs: verdicts, esm: verdicts, esmRequires: ['ajv/dist/runtime/validation_error'] });
  });

  it("validates Fastify route bodies with the plugin's rules whichever order Fastify adds ajv-formats in", () => {
    const format = (name: string) => `must match format "${name}"`;
    const english = {
      ok: [200, { ok: true, email: 'a@example.com' }],
      http: [400, `body/site ${format('url')}`], // ajv-formats' url (1.x with this recipe) let http:// through
      script: [400, `body/site ${format('url')}`],
      hostname: [400, `body/email ${format('email')}`],
      password: [400, `body/password ${enUsValidation.password}`], // 1.x: "body/password validation.password"
    };
    const de = validationTexts['de-de'];
    expect(node('fastify.mjs', app)).toEqual({
      plugins: english,
      onCreate: english,
      german: {
        ok: english.ok,
        http: [400, `body/site ${de.format.url}`],
        script: [400, `body/site ${de.format.url}`],
        hostname: [400, `body/email ${de.email}`],
        password: [400, `body/password ${de.password}`],
      },
    });
  });

  it('has types that resolve for every entry point under node10, node16 (CJS and ESM) and bundler (@arethetypeswrong)', async () => {
    const { checkPackage, createPackageFromTarballData } = await import('@arethetypeswrong/core');
    const result = await checkPackage(createPackageFromTarballData(new Uint8Array(readFileSync(tarball))));
    expect('problems' in result ? result.problems : result).toEqual([]);
    expect('entrypoints' in result ? Object.keys(result.entrypoints).sort() : []).toEqual([
      '.',
      './formats',
      './formats/*',
      './messages',
      './messages/*',
      './package.json',
    ]);
  });
});
