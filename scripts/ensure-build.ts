import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Scripts that read the built app (e2e, size, bench) build it first when dist/app is missing, so they
 * work on a fresh clone, and say so.
 */
export function ensureBuilt(script: string): void {
  if (existsSync('dist/app/index.html') && existsSync('dist/app/.vite/manifest.json')) return;
  console.log(`${script}: dist/app is missing, building first (npm run build)`);
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
