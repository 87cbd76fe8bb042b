import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { cliOptions } from './cli-args';

/**
 * `npm run screenshots`: every screen state x theme x light/dark, at 1280 and 375 px, as PNGs under
 * build/screenshots/<state>/<width>-<scheme>-<theme>.png with an index.html grid, and axe (WCAG 2.2 AA,
 * page-has-heading-one) on every one of them: it fails on any violation. Rendered by the grid test of
 * tests/e2e/visual.spec.ts against the built app and the demo tenant; builds first when dist/app is
 * missing (scripts/e2e.ts). The same states in Arabic, Hebrew and the pseudo-locale, light and dark,
 * go to build/screenshots/languages.html (axe in Arabic and Hebrew).
 * Options: `--width 375` one width only; `--no-axe` pictures only (a few minutes faster).
 * SCREENSHOTS=1 is what makes the spec render pictures: in `npm test` it runs the same checks, each
 * once, without pictures. The grid and the languages' passes run side by side on scripts/e2e.ts's
 * workers; the folder is emptied first, here, as each writes its own part.
 */
// width 0: both widths.
const options = cliOptions({ numbers: { width: 0 }, flags: ['no-axe'] });
const width = options.width;
const axe = !options['no-axe'];
rmSync('build/screenshots', { recursive: true, force: true });
const result = spawnSync('npx', ['tsx', 'scripts/e2e.ts', 'tests/e2e/visual.spec.ts', '--grep', 'screenshot grid'], {
  stdio: 'inherit',
  env: { ...process.env, SCREENSHOTS: '1', SCREENSHOT_WIDTHS: width ? String(width) : '1280,375', SCREENSHOT_AXE: axe ? '1' : '0' },
});
if (result.status === 0) console.log('screenshots: open build/screenshots/index.html');
process.exit(result.status ?? 1);
