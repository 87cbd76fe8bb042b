import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { routes } from '../../src/generated/catalogue';
import {
  budgetFor,
  bundledModules,
  EARLY_KEY,
  entryKey,
  entryKeys,
  fileSizes,
  lazyChunks,
  preloadedIdleKeys,
  readBudgets,
  readManifest,
  routeLoad,
  staticClosure,
} from '../../scripts/size/measure';

/**
 * Size budgets (budgets.json) against the last `npm run build` (npm test builds first). A size
 * check, deterministic: brotli q11 of the built files, no timing. `npm run size` prints the detail.
 */
const manifest = readManifest();
const budgets = readBudgets();
const paths = [...new Map(routes.map((route) => [route.path, route])).values()];

// Brotli q11 of every built file once (cached by measure.ts), not inside a test's 5-second limit:
// two shared cores can take longer than that for the entry chunk.
beforeAll(() => {
  for (const chunk of Object.values(manifest)) {
    fileSizes(chunk.file);
    chunk.css?.forEach((file) => fileSizes(file));
  }
}, 180_000);

describe('first-load budgets (brotli, JS + CSS + fonts)', () => {
  it('every budgeted route exists in the catalogue', () => {
    const known = new Set(paths.map((route) => route.path));
    expect(Object.keys(budgets.routes).filter((path) => !known.has(path))).toEqual([]);
  });

  it('the startup modules are lazy chunks of the build', () => {
    for (const key of budgets.startup) expect(manifest[key]?.isDynamicEntry, key).toBe(true);
  });

  it.each(paths.map((route) => [route.path, route] as const))('%s', (_path, route) => {
    const load = routeLoad(manifest, route, budgets);
    const budget = budgetFor(budgets, route.path);
    expect(load.total.brotli, `${route.path}: ${load.total.brotli} bytes > budget ${budget} (npm run size shows what is in it)`).toBeLessThanOrEqual(budget);
  });
});

describe('what a page downloads for its idle time (issue 39)', () => {
  const generatedRoutes = JSON.parse(readFileSync('src/generated/routes.json', 'utf8')) as Array<{ path: string; screenId: string; parts?: string[] }>;
  const login = generatedRoutes.find((route) => route.path === '/login')!;
  const entry = new Set(staticClosure(manifest, entryKeys(manifest)));
  /** The modules of a route's idle-time preloads beyond the entry (they import it). */
  const idleModules = (route: { parts?: string[] }) =>
    modulesIn(new Set(staticClosure(manifest, preloadedIdleKeys(manifest, route)).filter((file) => !entry.has(file))));

  it("/login preloads the idle chunk and its passkey sign-in's, apart from what hydrates it", () => {
    expect(login.parts).toEqual(['passkeySignIn']);
    const ids = idleModules(login);
    for (const needed of [/src\/api\/client\.ts/, /src\/app\/funnel-send\.ts/, /widgets\/content\/passkeySignIn\//, /@simplewebauthn\/browser/])
      expect(
        ids.some((id) => needed.test(id)),
        String(needed),
      ).toBe(true);
    // Control: a route whose first step shows no optional part preloads the idle chunk alone.
    const register = generatedRoutes.find((route) => route.path === '/register')!;
    const registerIds = idleModules(register);
    expect(registerIds.some((id) => id.includes('src/api/client.ts'))).toBe(true);
    expect(registerIds.some((id) => id.includes('passkeySignIn'))).toBe(false);
  });

  it("/login's page by its load event, the first load and the idle-time chunks, is at most issue 39's 90 kB", () => {
    const firstLoad = routeLoad(manifest, login, budgets);
    const first = new Set(firstLoad.files.map((file) => file.file));
    const idle = staticClosure(manifest, preloadedIdleKeys(manifest, login)).filter((file) => !first.has(file));
    const total = firstLoad.total.brotli + idle.reduce((sum, file) => sum + fileSizes(file).brotli, 0);
    expect(idle.length).toBeGreaterThan(0);
    expect(total).toBeLessThanOrEqual(90_000);
  });
});

describe('lazy chunks', () => {
  it(`each is at most budgets.json lazyChunk (brotli)`, () => {
    const entryFiles = new Set(staticClosure(manifest, [...entryKeys(manifest), ...budgets.startup]));
    const over = lazyChunks(manifest, entryFiles).filter((chunk) => chunk.brotli > budgets.lazyChunk);
    expect(over.map((chunk) => `${chunk.src}: ${chunk.brotli}`)).toEqual([]);
  });
});

/** The source modules bundled into the given output files (build/bundle-stats.json, the visualiser's raw data). */
function modulesIn(files: Set<string>): string[] {
  return bundledModules()
    .filter((module) => files.has(module.chunk))
    .map((module) => module.id);
}

describe('what must never ship in the entry chunk', () => {
  it('no ajv, no markdown parser, no fast-uri or fast-equals, no response validators (module list of build/bundle-stats.json)', () => {
    const ids = modulesIn(new Set(staticClosure(manifest, [entryKey(manifest)])));
    expect(ids.length).toBeGreaterThan(100);
    expect(ids.filter((id) => /node_modules\/(ajv|markdown-to-jsx|fast-uri|fast-equals)\/|src\/generated\/api\//.test(id))).toEqual([]);
  });

  it("/login's first load has no heavy widget, no error reporting and none of rjsf's deferred parts", () => {
    const login = paths.find((route) => route.path === '/login');
    expect(login).toBeDefined();
    const ids = modulesIn(new Set(routeLoad(manifest, login!, budgets).files.map((file) => file.file)));
    expect(ids.some((id) => id.includes('src/generated/screens/login'))).toBe(true);
    const heavy =
      /node_modules\/(libphonenumber-js|qrcode\.react|@simplewebauthn|@sentry)\/|widgets\/(phone|qrCode|webauthn|duo)\/|@rjsf\/core\/lib\/components\/(widgets\/(Select|Radio|Textarea|Checkboxes)Widget|fields\/(Array|Number)Field)\.js/;
    expect(ids.filter((id) => heavy.test(id))).toEqual([]);
  });

  it("/login's first load: no router or i18n library, no allOf merge, no operation client (issue 27); its first step's validation with the screen (issue 39)", () => {
    const login = paths.find((route) => route.path === '/login');
    const ids = modulesIn(new Set(routeLoad(manifest, login!, budgets).files.map((file) => file.file)));
    const deferred =
      /node_modules\/(react-router|react-router-dom|i18next|react-i18next|@x0k\/json-schema-merge)\/|src\/generated\/operations|src\/api\/(client|operation-caller)\.ts/;
    expect(ids.filter((id) => deferred.test(id))).toEqual([]);
    // Modulepreloaded beside the screen, not four chunks after the form is live (vite.config.ts, the `validation` group).
    for (const needed of [
      /src\/generated\/screens\/login\.credentials\.validators/,
      /node_modules\/@rjsf\/validator-ajv8\//,
      /src\/engine\/form\/validation\.ts/,
    ])
      expect(
        ids.some((id) => needed.test(id)),
        String(needed),
      ).toBe(true);
  });

  it('the early script (src/early.ts) stands alone and stays small', () => {
    const early = manifest[EARLY_KEY];
    expect(early?.isEntry).toBe(true);
    expect(early?.imports ?? []).toEqual([]);
    expect(fileSizes(early!.file).brotli).toBeLessThan(600);
  });
});
