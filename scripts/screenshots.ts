import { spawnSync } from 'node:child_process';
import { numberArg } from './cli-args';

/**
 * `npm run screenshots`: every screen state x theme as PNGs under build/screenshots (with an
 * index.html grid), rendered by the grid test of tests/e2e/visual.spec.ts against the built app
 * and the demo tenant. Builds first when dist/app is missing (scripts/e2e.ts).
 * `npm run screenshots -- --width 375` renders at that viewport width instead of 1280, into
 * build/screenshots-375.
 */
const width = numberArg('width', 1280);
const result = spawnSync('npx', ['tsx', 'scripts/e2e.ts', 'tests/e2e/visual.spec.ts', '--grep', 'screenshot grid'], {
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOT_WIDTH: String(width) },
});
if (result.status === 0) console.log(`screenshots: open build/screenshots${width === 1280 ? '' : `-${width}`}/index.html`);
process.exit(result.status ?? 1);
