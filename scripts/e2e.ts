import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { availableParallelism } from 'node:os';
import { findChromium } from './browser';
import { ensureBuilt } from './ensure-build';
import { freePort } from './free-port';

/**
 * `npm run test:e2e`: Playwright in Chromium against the built app and the reference server.
 * Two workers (E2E_WORKERS; at most one per core beyond the first), each with a server of its own
 * (playwright.config.ts): the first on E2E_PORT (default 8181), the others on free ports, passed on
 * in E2E_PORTS. When a test fails, the page as Playwright last saw it (its error-context.md: the
 * accessibility snapshot, with any alert's text) is printed too: a CI log is often all there is.
 */
ensureBuilt('e2e');
const chromium = findChromium();

const workers = Math.max(1, Math.min(Number(process.env.E2E_WORKERS ?? 2) || 1, Math.max(2, availableParallelism())));
const first = Number(process.env.E2E_PORT ?? 8181);
const ports = [first];
while (ports.length < workers) {
  const port = await freePort();
  if (!ports.includes(port)) ports.push(port);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, E2E_PORTS: ports.join(',') },
});
if (result.status !== 0) printErrorContexts('build/e2e-results');
process.exit(result.status ?? 1);

function printErrorContexts(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== 'error-context.md') continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    console.log(`\n--- ${file} ---\n${text.length > 4000 ? `${text.slice(0, 4000)}\n[... ${text.length - 4000} more characters]` : text}`);
  }
}
