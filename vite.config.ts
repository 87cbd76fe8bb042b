import { fileURLToPath } from 'node:url';
import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { staticFiles } from './scripts/vite-static';

/** The reference server `npm run dev` starts beside vite's dev server. */
const API_SERVER = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const lazyMarkdownModule = here('./src/engine/form/lazy-markdown.tsx');
const rjsfRegistryModule = here('./src/engine/form/rjsf-registry.tsx');
const allOfModule = here('./src/engine/form/all-of.ts');
const earlyModule = here('./src/early.ts');
/** The early script and what it imports: a chunk of its own. */
const EARLY_MODULES = /[\\/]src[\\/](early\.ts|lib[\\/]early-marks\.ts)$/;

/**
 * Keeps what rjsf imports eagerly but our screens rarely use out of the entry chunk (each
 * replacement module says why and how): markdown-to-jsx behind a lazy wrapper; the fields and
 * widgets no sign-in form uses loaded on first render; fast-uri for @rjsf/utils replaced by URL,
 * fast-equals by a small deep equality (src/engine/form/deep-equals.ts);
 * the allOf merge brought by the screens that need it.
 * Browser build only: vitest runs rjsf unchanged.
 */
function slimRjsf(): Plugin {
  return {
    name: 'frontdoor:slim-rjsf',
    enforce: 'pre',
    resolveId(source, importer) {
      if (!importer) return null;
      const from = importer.replace(/\\/g, '/');
      if (source === 'markdown-to-jsx/react' && importer !== lazyMarkdownModule) return lazyMarkdownModule;
      if (from.endsWith('/@rjsf/core/lib/getDefaultRegistry.js')) {
        if (source === './components/fields/index.js') return { id: `${rjsfRegistryModule}?fields` };
        if (source === './components/widgets/index.js') return { id: `${rjsfRegistryModule}?widgets` };
        if (source === './components/templates/index.js') return { id: `${rjsfRegistryModule}?templates` };
      }
      if (source === 'fast-uri' && from.includes('/@rjsf/utils/')) return here('./src/engine/form/uri.ts');
      if (source === 'fast-equals' && from.includes('/@rjsf/utils/')) return here('./src/engine/form/deep-equals.ts');
      // rjsf's own modules merge allOf through ours; a screen with allOf imports the real one (src/engine/form/all-of.ts).
      if (source.endsWith('shallowAllOfMerge.js') && from.includes('/@rjsf/utils/lib/')) return allOfModule;
      return null;
    },
    load(id) {
      // getDefaultRegistry imports each index's default export: fields(), widgets() or templates().
      if (id === `${rjsfRegistryModule}?fields`) return `export { fields as default } from ${JSON.stringify(rjsfRegistryModule)};`;
      if (id === `${rjsfRegistryModule}?widgets`) return `export { widgets as default } from ${JSON.stringify(rjsfRegistryModule)};`;
      if (id === `${rjsfRegistryModule}?templates`) return `export { templates as default } from ${JSON.stringify(rjsfRegistryModule)};`;
      return null;
    },
  };
}

/**
 * The browser build (dist/app), and with `--ssr src/prerender.tsx` the build's prerenderer for Node
 * (scripts/prerender.ts): the same plugins for the module graph (so both render the same markup), but
 * none of the browser build's output files, chunking or manifests.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    slimRjsf(),
    ...(isSsrBuild
      ? []
      : [
          // What is in each chunk: build/treemap.html to look at, build/bundle-stats.json for scripts/size.ts.
          visualizer({ filename: 'build/treemap.html', template: 'treemap', gzipSize: true, title: 'frontdoor bundle' }),
          visualizer({ filename: 'build/bundle-stats.json', template: 'raw-data' }),
          // .br/.gz beside each file, the per-route preload map and static page texts, for server/spa.ts.
          staticFiles({ routesFile: here('./src/generated/routes.json'), budgetsFile: here('./budgets.json'), localesDir: here('./src/generated/locales') }),
        ]),
  ],
  base: '/',
  // The prerenderer is one bundle for Node, React's production build included.
  ...(isSsrBuild ? { ssr: { noExternal: true }, define: { 'process.env.NODE_ENV': JSON.stringify('production') } } : {}),
  build: isSsrBuild
    ? { outDir: 'build/prerender', emptyOutDir: true, sourcemap: false, target: 'node20', minify: false, copyPublicDir: false }
    : {
        outDir: 'dist/app',
        emptyOutDir: true,
        sourcemap: false,
        target: 'es2022',
        assetsInlineLimit: 0,
        // dist/app/.vite/manifest.json: the chunk graph scripts/size.ts and the budget test read.
        manifest: true,
        // Every browser we support has modulepreload; the polyfill would be in every first load.
        modulePreload: { polyfill: false },
        rolldownOptions: {
          // The page (index.html and its entry) and the early script every page loads first, on its own (src/early.ts).
          input: { index: here('./index.html'), early: earlyModule },
          output: {
            // A locale file's chunk names its language: de-de-login-<hash>.js, de-de-index-<hash>.js (each language has the same file names).
            chunkFileNames: (chunk) => {
              const locale = /[\\/]src[\\/]generated[\\/]locales[\\/]([^\\/]+)[\\/]([^\\/]+)\.(json|ts)$/.exec(chunk.facadeModuleId ?? '');
              return locale ? `assets/${locale[1]}-${locale[2]}-[hash].js` : 'assets/[name]-[hash].js';
            },
            codeSplitting: {
              // Everything the entry imports statically in one chunk: otherwise each module shared with
              // a lazy chunk (rjsf helpers, react, the engine) becomes a first-load chunk of its own. The
              // early script and the names it shares with the app's forms stay in a chunk of their own:
              // it must not wait for the app's chunk (the app's imports that small one).
              groups: [
                { name: 'early', test: EARLY_MODULES, priority: 1 },
                { name: 'app', tags: ['$initial'] },
              ],
            },
          },
        },
      },
  server: {
    // `npm run dev`: the reference server on PORT (default 8080) answers what the app calls.
    proxy: {
      '/ws': API_SERVER,
      '/account': API_SERVER,
      '/expired-account': API_SERVER,
      '/branding': API_SERVER,
      '/dev': API_SERVER,
    },
  },
}));
