import { existsSync, renameSync, rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { build } from 'vite';
import { generate } from './generate';
import { writeShellData } from './shell-data';

/**
 * The app's bundle (vite.config.ts) into `outDir`, with the static page frame's data beside it
 * (.vite/shell.json, tooling/shell-data.ts). `npm run build` goes on with the prerendered pages
 * (scripts/prerender.ts); the studio's publish serves it as it is.
 */
export async function buildApp(outDir = 'dist/app'): Promise<void> {
  await build({ logLevel: 'warn', build: { outDir, emptyOutDir: true } });
  writeShellData(outDir);
}

/**
 * The catalogue check and code generation, then the app's bundle into `target`: built beside it and
 * swapped in by renaming, so a server serving `target` (server/spa/build.ts notices the new index.html)
 * never sees half a build. The studio publishes this way after a save (tooling/publish.ts), so an edit
 * is live in the running server without a restart.
 */
export async function publishApp(target: string): Promise<void> {
  const dir = resolve(target);
  await generate();
  const next = `${dir}.next`;
  const old = `${dir}.old`;
  rmSync(next, { recursive: true, force: true });
  await buildApp(next);
  rmSync(old, { recursive: true, force: true });
  if (existsSync(dir)) renameSync(dir, old);
  renameSync(next, dir);
  rmSync(old, { recursive: true, force: true });
}
