import { execFileSync } from 'node:child_process';
import { build } from 'vite';
import { CatalogueError, generate, summary } from '../tooling/generate';
import { buildServer } from './build-server';

/**
 * `npm run build`: the validators package (packages/validators/dist), the catalogue check and code
 * generation (src/generated, tooling/generate.ts), then the app bundle (dist/app, tooling/app-build.ts)
 * and its prerendered pages (dist/app/.vite/pages), outside production the dev
 * screen studio (dist/studio), and the server compiled to JavaScript (dist/server). A broken screen file stops here
 * with its file, JSON pointer and reason.
 */
// Read before vite runs: a vite build sets process.env.NODE_ENV to 'production' for itself.
const NODE_ENV = process.env.NODE_ENV;

async function main(): Promise<void> {
  // The app, the server and the generated validators import @frontdoor/validators from its dist.
  // `npm test` builds it in its generate stage and type-checks against it while this runs: building
  // it again here would empty dist/ under the type checker (FRONTDOOR_VALIDATORS_BUILT=1, scripts/test.ts).
  if (process.env.FRONTDOOR_VALIDATORS_BUILT !== '1') execFileSync(process.execPath, ['packages/validators/scripts/build.mjs'], { stdio: 'inherit' });
  console.log(summary(await generate()));
  // Imported only now: the page frame's data (tooling/shell-data.ts) reads src/generated, which a fresh clone has not yet.
  const { buildApp } = await import('../tooling/app-build');
  await buildApp();
  console.log('app built into dist/app');
  // Every route's first state as HTML, in every language, from the app itself (the server sends it; the browser hydrates it).
  // Imported only now: the prerenderer reads src/generated, which generate() has just written.
  const { prerenderPages } = await import('./prerender');
  const prerendered = await prerenderPages();
  console.log(
    `prerendered ${prerendered.pages} pages (${prerendered.routes} routes, ${prerendered.languages} languages) into dist/app/.vite/pages in ${(prerendered.ms / 1000).toFixed(1)} s`,
  );
  // The dev-only screen studio (/dev/studio): its own build, so the app bundle is unchanged by it.
  // A production build skips it (the server does not serve it there); STUDIO=0 skips it too.
  if (NODE_ENV !== 'production' && process.env.STUDIO !== '0') {
    await build({ configFile: 'vite.studio.config.ts', logLevel: 'warn' });
    console.log('studio built into dist/studio');
  }
  const server = buildServer();
  console.log(`server compiled into dist/server, with dist/catalogue and dist/tooling (${server.compiled} modules, ${server.copied} files copied)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof CatalogueError ? error.message : error);
  process.exit(1);
});
