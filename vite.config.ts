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

/**
 * Keeps what rjsf imports eagerly but our screens rarely use out of the entry chunk (each
 * replacement module says why and how): markdown-to-jsx behind a lazy wrapper; the fields and
 * widgets no sign-in form uses loaded on first render; fast-uri for @rjsf/utils replaced by URL.
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

export default defineConfig({
  plugins: [
    react(),
    slimRjsf(),
    // What is in each chunk: build/treemap.html to look at, build/bundle-stats.json for scripts/size.ts.
    visualizer({ filename: 'build/treemap.html', template: 'treemap', gzipSize: true, title: 'frontdoor bundle' }),
    visualizer({ filename: 'build/bundle-stats.json', template: 'raw-data' }),
    // .br/.gz beside each file, the per-route preload map and static page texts, for server/spa.ts.
    staticFiles({ routesFile: here('./src/generated/routes.json'), budgetsFile: here('./budgets.json'), localesDir: here('./src/generated/locales') }),
  ],
  base: '/',
  build: {
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
      output: {
        codeSplitting: {
          // Everything the entry imports statically in one chunk: otherwise each module shared with
          // a lazy chunk (rjsf helpers, react, i18next) becomes a first-load chunk of its own.
          groups: [{ name: 'app', tags: ['$initial'] }],
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
});
