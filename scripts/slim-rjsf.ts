import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/**
 * Keeps what rjsf imports eagerly but our screens rarely use out of the entry chunk (each replacement
 * module says why and how): markdown-to-jsx behind a lazy wrapper; the fields and widgets no sign-in
 * form uses loaded on first render; fast-uri for @rjsf/utils replaced by URL, fast-equals by a small
 * deep equality (src/engine/form/deep-equals.ts); the allOf merge brought by the screens that need it.
 * Without it /login's first load is 57 kB (brotli) larger, half again its budget (budgets.json).
 *
 * It swaps modules inside @rjsf by their paths and import specifiers, so it holds only for the rjsf
 * releases it was made for: the build refuses any other (RJSF_RELEASES), and fails when a swap found
 * nothing to swap (a module moved). tests/build/rjsf-swap.test.ts checks both, and the engine's screen
 * tests run once more on this module graph (vitest.config.ts, project `app-slim-rjsf`).
 */
const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
const here = (file: string) => join(ROOT, file);

/** The rjsf packages the swap reaches into, and the releases it was made for (upgrading rjsf: check each swap, then add the release here). */
export const RJSF_RELEASES: Record<string, readonly string[]> = {
  '@rjsf/core': ['6.11.1'],
  '@rjsf/utils': ['6.11.1'],
};

/** Each swap by name: the build fails when one found nothing to swap. */
export const SWAPS = ['markdown', 'fields', 'widgets', 'templates', 'fast-uri', 'fast-equals', 'allOf'] as const;
type Swap = (typeof SWAPS)[number];

const lazyMarkdownModule = here('src/engine/form/lazy-markdown.tsx');
const rjsfRegistryModule = here('src/engine/form/rjsf-registry.tsx');
const REGISTRY_PARTS: Record<string, Swap> = {
  './components/fields/index.js': 'fields',
  './components/widgets/index.js': 'widgets',
  './components/templates/index.js': 'templates',
};

/** The installed version of a package, as its package.json says (npm installs rjsf at the top of node_modules). */
export function installedVersion(name: string, from = ROOT): string {
  return (JSON.parse(readFileSync(join(from, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The rjsf packages whose installed release the swap was not made for, in words; empty when all are known. */
export function unknownReleases(version: (name: string) => string = (name) => installedVersion(name)): string[] {
  return Object.entries(RJSF_RELEASES).flatMap(([name, releases]) => {
    const installed = version(name);
    return releases.includes(installed) ? [] : [`${name} ${installed} (the swap was made for ${releases.join(', ')})`];
  });
}

/** Where a swap sends an import from inside rjsf, or null. */
function swapFor(source: string, from: string): { swap: Swap; id: string } | null {
  if (source === 'markdown-to-jsx/react' && from !== lazyMarkdownModule.replace(/\\/g, '/')) return { swap: 'markdown', id: lazyMarkdownModule };
  if (from.endsWith('/@rjsf/core/lib/getDefaultRegistry.js') && REGISTRY_PARTS[source])
    return { swap: REGISTRY_PARTS[source], id: `${rjsfRegistryModule}?${REGISTRY_PARTS[source]}` };
  if (!from.includes('/@rjsf/utils/')) return null;
  if (source === 'fast-uri') return { swap: 'fast-uri', id: here('src/engine/form/uri.ts') };
  if (source === 'fast-equals') return { swap: 'fast-equals', id: here('src/engine/form/deep-equals.ts') };
  // rjsf's own modules merge allOf through ours; a screen with allOf imports the real one (src/engine/form/all-of.ts).
  if (source.endsWith('shallowAllOfMerge.js') && from.includes('/@rjsf/utils/lib/')) return { swap: 'allOf', id: here('src/engine/form/all-of.ts') };
  return null;
}

/**
 * The swap as a Vite plugin. A build (not the dev server, which loads modules as they are asked for)
 * refuses an rjsf release it was not made for, and fails when a swap found nothing to swap.
 */
export function slimRjsf(options: { version?: (name: string) => string } = {}): Plugin {
  const fired = new Set<Swap>();
  let strict = false;
  return {
    name: 'frontdoor:slim-rjsf',
    enforce: 'pre',
    configResolved(config) {
      strict = config.command === 'build';
    },
    buildStart() {
      fired.clear();
      const unknown = unknownReleases(options.version);
      if (strict && unknown.length > 0)
        this.error(
          `slim-rjsf (scripts/slim-rjsf.ts) was not made for ${unknown.join('; ')}: check each swap against the new release, then add it to RJSF_RELEASES.`,
        );
    },
    resolveId(source, importer) {
      if (!importer) return null;
      const found = swapFor(source, importer.replace(/\\/g, '/'));
      if (!found) return null;
      fired.add(found.swap);
      return found.id.includes('?') ? { id: found.id } : found.id;
    },
    load(id) {
      // getDefaultRegistry imports each index's default export: fields(), widgets() or templates().
      const part = id.startsWith(`${rjsfRegistryModule}?`) ? id.slice(rjsfRegistryModule.length + 1) : undefined;
      return part ? `export { ${part} as default } from ${JSON.stringify(rjsfRegistryModule)};` : null;
    },
    buildEnd(error) {
      const missing = SWAPS.filter((swap) => !fired.has(swap));
      if (strict && !error && missing.length > 0)
        this.error(
          `slim-rjsf (scripts/slim-rjsf.ts) found nothing to swap for ${missing.join(', ')}: rjsf's modules moved; the bundle would carry them whole.`,
        );
    },
  };
}
