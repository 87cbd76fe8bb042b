import { existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { CatalogueError, generate } from './generate';

/**
 * `tsx scripts/publish-app.ts [<dir>]`: the catalogue check + code generation, then the app bundle
 * into <dir> (default dist/app) — what `npm run build` does for the app, without the validators
 * package and the studio. The bundle is built beside <dir> and swapped in by renaming, so a server
 * serving <dir> (server/spa.ts notices the new index.html) never sees half a build. The studio runs
 * this after a save, so an edit is live in the running server without a restart.
 */
async function main(): Promise<void> {
  const target = resolve(process.argv[2] ?? 'dist/app');
  await generate();
  const next = `${target}.next`;
  const old = `${target}.old`;
  rmSync(next, { recursive: true, force: true });
  await build({ logLevel: 'warn', build: { outDir: next, emptyOutDir: true } });
  rmSync(old, { recursive: true, force: true });
  if (existsSync(target)) renameSync(target, old);
  renameSync(next, target);
  rmSync(old, { recursive: true, force: true });
  console.log(`app published into ${target}`);
}

main().catch((error: unknown) => {
  console.error(error instanceof CatalogueError ? error.message : error);
  process.exit(1);
});
