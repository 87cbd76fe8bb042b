import path from 'node:path';
import { publishApp } from './app-build';
import { CatalogueError } from './generate';

/**
 * The studio publish's child (tooling/publish.ts starts it): `tsx tooling/publish-child.ts <dir>` builds
 * the app into <dir>. A module of its own, imported by nothing: the server's process, and its compiled
 * copy in dist/, never load Vite or the generator.
 */
const target = process.argv[2] ?? 'dist/app';
await publishApp(target).then(
  () => console.log(`app published into ${path.resolve(target)}`),
  (error: unknown) => {
    console.error(error instanceof CatalogueError ? error.message : error);
    process.exit(1);
  },
);
