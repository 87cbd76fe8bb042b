/**
 * The repository (or image) root the server reads its contract, lists and built app from. Found by
 * walking up from this module to the folder that has schemas/api, so the same code runs from the
 * source tree (server/) and compiled (dist/server/, `npm run build`).
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

function findRoot(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    if (fs.existsSync(path.join(dir, 'schemas', 'api'))) return dir;
    if (path.dirname(dir) === dir) throw new Error(`no schemas/api above ${start}: run the server from the repository or the image`);
  }
}

export const ROOT = findRoot(path.dirname(fileURLToPath(import.meta.url)));
