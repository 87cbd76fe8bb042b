/**
 * The code's root (the repository, or the image): the folder above this module that holds
 * schemas/api. Found by walking up, so the same module runs from the source tree (catalogue/check/)
 * and compiled (dist/catalogue/check/, `npm run build:server`). The server's ROOT is this one.
 */
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'schemas', 'api'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no schemas/api above ${start}: run from the repository or the image`);
  }
}

export const CODE_ROOT = findRoot(dirname(fileURLToPath(import.meta.url)));
