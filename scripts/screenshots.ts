import { spawnSync } from 'node:child_process';

/**
 * `npm run screenshots`: every screen state x theme as PNGs under build/screenshots (with an
 * index.html grid), rendered by the grid test of tests/e2e/visual.spec.ts against the built app
 * and the demo tenant. Builds first when dist/app is missing (scripts/e2e.ts).
 */
const result = spawnSync('npx', ['tsx', 'scripts/e2e.ts', 'tests/e2e/visual.spec.ts', '--grep', 'screenshot grid'], { stdio: 'inherit' });
if (result.status === 0) console.log('screenshots: open build/screenshots/index.html');
process.exit(result.status ?? 1);
