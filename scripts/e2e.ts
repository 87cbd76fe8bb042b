import { spawnSync } from 'node:child_process';
import { findChromium } from './browser';
import { ensureBuilt } from './ensure-build';

/** `npm run test:e2e`: Playwright in Chromium against the built app and the reference server. */
ensureBuilt('e2e');
const chromium = findChromium();
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium },
});
process.exit(result.status ?? 1);
