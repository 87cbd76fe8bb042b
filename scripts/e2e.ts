import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { findChromium } from './browser';

/** `npm run test:e2e`: Playwright in Chromium against the built app and the reference server. */
if (!existsSync('dist/app/index.html')) {
  console.log('e2e: dist/app is missing, building first');
  const build = spawnSync('npm', ['run', 'build'], { stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}
const chromium = findChromium();
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
