// Builds dist/esm (ES modules, package "type": "module") and dist/cjs (CommonJS, marked by its own
// package.json), each with its .d.ts files: `tsc` twice, no bundler, so the published files are
// the source file for file. Run by `npm run build` and by `prepack` (npm pack / npm publish).
import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
let tsc;
try {
  tsc = createRequire(join(root, 'package.json')).resolve('typescript/bin/tsc');
} catch {
  // A production install (`npm ci --omit=dev`) has no TypeScript: the package is built by a full `npm ci`.
  console.error(
    '@frontdoor/validators is built with TypeScript, a devDependency: run `npm ci` (then `npm run build`, and `npm prune --omit=dev` for a production tree).',
  );
  process.exit(1);
}

rmSync(join(root, 'dist'), { recursive: true, force: true });
for (const config of ['tsconfig.build.json', 'tsconfig.cjs.json']) {
  execFileSync(process.execPath, [tsc, '-p', join(root, config)], { stdio: 'inherit' });
}
mkdirSync(join(root, 'dist/cjs'), { recursive: true });
writeFileSync(join(root, 'dist/cjs/package.json'), `${JSON.stringify({ type: 'commonjs' }, null, 2)}\n`);
