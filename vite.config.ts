import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { visualizer } from 'rollup-plugin-visualizer';
import { staticFiles } from './scripts/vite-static.ts';
import { slimRjsf } from './scripts/slim-rjsf.ts';
import { compileHints } from './scripts/compile-hints.ts';
import { withoutEntryCss } from './scripts/vite-entry-css.ts';
import { API_PREFIXES, IDLE_CHUNK } from './catalogue/build-contract.ts';

/** The reference server `npm run dev` starts beside vite's dev server. */
const API_SERVER = `http://127.0.0.1:${process.env.PORT ?? 8080}`;
const here = (file: string) => fileURLToPath(new URL(file, import.meta.url));
const earlyModule = here('./src/early.ts');
/** The early script and what it imports: a chunk of its own. */
const EARLY_MODULES = /[\\/]src[\\/](early\.ts|lib[\\/]early-marks\.ts)$/;
/** The entry's stylesheet (the entry chunk is `index`; a language's loader is `<lang>-index`). */
const ENTRY_CSS = /^assets\/index-[^/]+\.css$/;
/**
 * What every page runs once it is idle (issue 39): the operation client and the engine host's caller
 * (a screen's first call, the passkey sign-in's options), and the funnel's sender with the
 * experiments' texts (src/app/funnel.ts) with its call's response validator. One chunk instead of a
 * chain of four, modulepreloaded with the page (scripts/vite-static.ts), so the calls made at idle go
 * out at once: a round trip after idle instead of a chunk's round trip and then the calls'.
 */
const IDLE_MODULES =
  /[\\/]src[\\/](api[\\/](client|operation-caller)\.ts|app[\\/](funnel-send|experiments)\.ts|generated[\\/]api[\\/]experimentAssignments\.cjs)$/;
/**
 * The passkey sign-in on /login, run at idle (widgets/content/passkeySignIn): the part, WebAuthn's
 * browser library and the response validator of the call it makes at once (else its own request).
 * Named as the part: a route whose first step shows it modulepreloads it (routes.json `parts`).
 */
const PASSKEY_MODULES =
  /[\\/](widgets[\\/]content[\\/]passkeySignIn[\\/][^\\/]+\.tsx?|node_modules[\\/]@simplewebauthn[\\/]browser[\\/].*|src[\\/]generated[\\/]api[\\/]passkeyLoginOptions\.cjs)$/;
/**
 * What validating a form takes beyond its step's validator (issue 39): rjsf's validator around it
 * (src/engine/form/validation.ts), ajv's runtime helpers and the shared formats. One chunk, which a
 * screen's chunk imports with its first step's validator (tooling/generate/screens.ts), so the server
 * modulepreloads it beside the screen's instead of four small chunks after the form is live.
 */
const VALIDATION_MODULES =
  /[\\/](src[\\/]engine[\\/]form[\\/]validation\.ts|node_modules[\\/]@rjsf[\\/]validator-ajv8[\\/].*|node_modules[\\/]ajv[\\/]dist[\\/]runtime[\\/].*|packages[\\/]validators[\\/].*)$/;

/**
 * The app is written against React (types, tests, the studio) but the browser runs Preact's compat
 * layer (issue 39: about 10 kB brotli instead of react-dom's 58 kB), and the prerenderer renders with
 * Preact's server renderer, so that what it writes is what the browser's Preact hydrates.
 */
const PREACT = [
  { find: /^react$/, replacement: 'preact/compat' },
  { find: /^react-dom$/, replacement: 'preact/compat' },
  { find: /^react-dom\/client$/, replacement: 'preact/compat/client' },
  { find: /^react-dom\/static$/, replacement: here('./scripts/preact/static.ts') },
  { find: /^react\/jsx-runtime$/, replacement: 'preact/compat/jsx-runtime' },
  { find: /^react\/jsx-dev-runtime$/, replacement: 'preact/compat/jsx-dev-runtime' },
];

/**
 * The browser build (dist/app), and with `--ssr src/prerender.tsx` the build's prerenderer for Node
 * (scripts/prerender.ts): the same plugins for the module graph (so both render the same markup), but
 * none of the browser build's output files, chunking or manifests.
 */
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [
    react(),
    // rjsf's rarely used parts out of the entry chunk (scripts/slim-rjsf.ts); the prerenderer renders with the same graph.
    slimRjsf(),
    ...(isSsrBuild
      ? []
      : [
          // What is in each chunk: build/treemap.html to look at, build/bundle-stats.json for scripts/size.ts.
          visualizer({ filename: 'build/treemap.html', template: 'treemap', gzipSize: true, title: 'frontdoor bundle' }),
          visualizer({ filename: 'build/bundle-stats.json', template: 'raw-data' }),
          // The entry chunk compiled eagerly, off the main thread, while it downloads (scripts/compile-hints.ts).
          compileHints('index'),
          // The entry's CSS, inline in every page, never loaded again by a lazy chunk.
          withoutEntryCss((file) => ENTRY_CSS.test(file)),
          // .br/.gz beside each file and the per-route preload map, for server/spa/.
          staticFiles({ routesFile: here('./src/generated/routes.json'), budgetsFile: here('./budgets.json') }),
        ]),
  ],
  base: '/',
  resolve: { alias: PREACT },
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
                { name: 'early', test: EARLY_MODULES, priority: 3 },
                { name: 'app', tags: ['$initial'], priority: 2 },
                { name: 'validation', test: VALIDATION_MODULES, priority: 1 },
                // Named for the server's preloads (catalogue/build-contract.ts IDLE_CHUNK): the idle chunk on
                // every page, an optional part's chunk (named as the part) where a first step shows it.
                { name: IDLE_CHUNK, test: IDLE_MODULES, priority: 1 },
                { name: 'passkeySignIn', test: PASSKEY_MODULES, priority: 1 },
              ],
            },
          },
        },
      },
  server: {
    // `npm run dev`: the reference server on PORT (default 8080) answers what the app calls.
    proxy: Object.fromEntries(API_PREFIXES.map((prefix) => [prefix.replace(/\/$/, ''), API_SERVER])),
  },
}));
