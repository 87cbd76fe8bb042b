import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { build } from 'vite';
import { CatalogueError, generate } from './generate';

/**
 * `npm run build`: the validators package (dist/validators), the catalogue check and code
 * generation (src/generated), then the app bundle (dist/app). A broken screen file stops here
 * with its file, JSON pointer and reason.
 */
async function main(): Promise<void> {
  if (existsSync('tsconfig.validators.json')) {
    execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.validators.json'], { stdio: 'inherit' });
  }
  const project = await generate();
  console.log(`catalogue ok: ${project.screens.length} screens, ${Object.keys(project.operations).length} operations, ${Object.keys(project.locales).length} locale(s)`);
  await build({ logLevel: 'warn' });
  console.log('app built into dist/app');
}

main().catch((error: unknown) => {
  console.error(error instanceof CatalogueError ? error.message : error);
  process.exit(1);
});
