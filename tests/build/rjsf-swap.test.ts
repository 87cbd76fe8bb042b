import { describe, expect, it } from 'vitest';
import type { Plugin } from 'vite';
import { entryKey, readManifest, bundledModules, staticClosure } from '../../scripts/size/measure';
import { installedVersion, RJSF_RELEASES, slimRjsf, SWAPS, unknownReleases } from '../../scripts/slim-rjsf';

/**
 * The browser build swaps modules inside @rjsf for ours (scripts/slim-rjsf.ts): the guard that an rjsf
 * upgrade cannot break the bundle silently. The build refuses a release the swap was not made for and
 * fails when a swap found nothing; the bundle the last build made (npm test builds first) carries none
 * of what was swapped out; and the engine's screen tests run on that graph too (project app-slim-rjsf).
 */
type Hook = (this: { error(message: string): never }, ...args: unknown[]) => unknown;
const hook = (plugin: Plugin, name: 'configResolved' | 'buildStart' | 'resolveId' | 'buildEnd') => plugin[name] as unknown as Hook;

/** Runs the plugin as a build does; the error the build would fail with, if any. */
function asBuild(plugin: Plugin, imports: Array<[string, string]>): string | undefined {
  const context = {
    error(message: string): never {
      throw new Error(message);
    },
  };
  try {
    hook(plugin, 'configResolved').call(context, { command: 'build' });
    hook(plugin, 'buildStart').call(context);
    for (const [source, importer] of imports) hook(plugin, 'resolveId').call(context, source, importer);
    hook(plugin, 'buildEnd').call(context);
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
}

/** One import from inside rjsf per swap, as rjsf's modules write them. */
const RJSF = '/repo/node_modules/@rjsf';
const EVERY_SWAP: Array<[string, string]> = [
  ['markdown-to-jsx/react', `${RJSF}/core/lib/components/RichDescription.js`],
  ['./components/fields/index.js', `${RJSF}/core/lib/getDefaultRegistry.js`],
  ['./components/widgets/index.js', `${RJSF}/core/lib/getDefaultRegistry.js`],
  ['./components/templates/index.js', `${RJSF}/core/lib/getDefaultRegistry.js`],
  ['fast-uri', `${RJSF}/utils/lib/findSchemaDefinition.js`],
  ['fast-equals', `${RJSF}/utils/lib/deepEquals.js`],
  ['./shallowAllOfMerge.js', `${RJSF}/utils/lib/schema/retrieveSchema.js`],
];

describe('the swap is pinned to the rjsf releases it was made for', () => {
  it('the installed rjsf is one of them (the control: the build runs)', () => {
    expect(Object.keys(RJSF_RELEASES).sort()).toEqual(['@rjsf/core', '@rjsf/utils']);
    for (const [name, releases] of Object.entries(RJSF_RELEASES)) expect(releases).toContain(installedVersion(name));
    expect(unknownReleases()).toEqual([]);
    expect(asBuild(slimRjsf(), EVERY_SWAP)).toBeUndefined();
  });

  it('a build refuses another release, naming it and the ones the swap was made for', () => {
    const next = (name: string) => (name === '@rjsf/utils' ? '6.12.0' : installedVersion(name));
    expect(unknownReleases(next)).toEqual([`@rjsf/utils 6.12.0 (the swap was made for ${RJSF_RELEASES['@rjsf/utils']!.join(', ')})`]);
    expect(asBuild(slimRjsf({ version: next }), EVERY_SWAP)).toMatch(/was not made for @rjsf\/utils 6\.12\.0.*add it to RJSF_RELEASES/);
  });

  it('a build fails when a swap found nothing to swap (a module of rjsf moved)', () => {
    expect(asBuild(slimRjsf(), EVERY_SWAP.slice(1))).toMatch(/found nothing to swap for markdown:/);
    expect(asBuild(slimRjsf(), EVERY_SWAP.filter(([source]) => source !== 'fast-equals'))).toMatch(/nothing to swap for fast-equals:/);
    expect(SWAPS).toHaveLength(EVERY_SWAP.length);
  });

  it('the dev server, which loads modules as asked, is not held to every swap', () => {
    const plugin = slimRjsf({ version: () => '0.0.0' });
    const context = { error: (message: string): never => { throw new Error(message); } };
    hook(plugin, 'configResolved').call(context, { command: 'serve' });
    expect(() => hook(plugin, 'buildStart').call(context)).not.toThrow();
    expect(() => hook(plugin, 'buildEnd').call(context)).not.toThrow();
  });
});

describe.skipIf(bundledModules().length === 0)('the production bundle of the last build', () => {
  it("carries none of what the swap takes out of the first load: rjsf's markdown, URI and equality libraries, its unused fields", () => {
    const manifest = readManifest();
    const first = new Set(staticClosure(manifest, [entryKey(manifest)]));
    const firstLoad = bundledModules().filter((module) => first.has(module.chunk));
    expect(firstLoad.length).toBeGreaterThan(100);
    expect(firstLoad.filter((module) => /\/node_modules\/(markdown-to-jsx|fast-uri|fast-equals)\//.test(module.id)).map((module) => module.id)).toEqual([]);
    expect(firstLoad.filter((module) => /@rjsf\/core\/lib\/components\/fields\/ArrayField/.test(module.id))).toEqual([]);
    // The control: our stand-ins are there instead.
    expect(firstLoad.some((module) => module.id.endsWith('src/engine/form/rjsf-registry.tsx'))).toBe(true);
    expect(firstLoad.some((module) => module.id.endsWith('src/engine/form/deep-equals.ts'))).toBe(true);
  });
});
