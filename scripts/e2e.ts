import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { findChromium } from '../tooling/browser';
import { ensureBuilt } from './ensure-build';
import { freePort } from './free-port';
import { startPostgres, type PostgresServer } from './postgres';

/**
 * `npm run test:e2e`: Playwright in Chromium against the built app and the reference server.
 * Two workers (E2E_WORKERS; at most one per core beyond the first), each with a server of its own
 * (playwright.config.ts): the first on E2E_PORT (default 8181), the others on free ports, passed on
 * in E2E_PORTS.
 *
 * The servers' database (E2E_POSTGRES): `off` (the default), each an in-memory SQLite; `one`, the
 * last worker's server on a throwaway PostgreSQL (scripts/postgres.ts) and the others on SQLite, so
 * that one run drives the browser suite through both engines (`npm test` does this: each spec file
 * runs on whichever worker is free); `all`, every server on PostgreSQL, each with a database of its
 * own (`npm run test:e2e:postgres`). The servers are listed with their engine at the start.
 * When a test fails, the page as Playwright last saw it (its error-context.md: the accessibility
 * snapshot, with any alert's text) is printed too: a CI log is often all there is.
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

const mode = process.env.E2E_POSTGRES ?? 'off';
if (!['off', 'one', 'all'].includes(mode)) {
  console.error(`E2E_POSTGRES must be off, one or all, not ${JSON.stringify(mode)}`);
  process.exit(2);
}
let postgres: PostgresServer | undefined;
let databases: string[] = ports.map(() => '');
if (mode !== 'off') {
  postgres = await startPostgres();
  const server = postgres;
  databases = ports.map((_, i) => (mode === 'all' || (i === ports.length - 1 && ports.length > 1) ? server.createDatabase(`e2e_${i}`) : ''));
}
for (const [i, port] of ports.entries()) {
  console.log(`e2e server ${i + 1}: port ${port}, ${databases[i] ? `PostgreSQL ${postgres?.version} (database e2e_${i})` : 'SQLite in memory'}`);
}

let status = 1;
try {
  const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, CHROMIUM_PATH: chromium, E2E_PORTS: ports.join(','), E2E_DATABASES: databases.join(',') },
  });
  status = result.status ?? 1;
  if (status !== 0) printErrorContexts('build/e2e-results');
} finally {
  postgres?.stop();
}
process.exit(status);

function printErrorContexts(dir: string): void {
  if (!existsSync(dir)) return;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || entry.name !== 'error-context.md') continue;
    const file = join(entry.parentPath, entry.name);
    const text = readFileSync(file, 'utf8');
    console.log(`\n--- ${file} ---\n${text.length > 4000 ? `${text.slice(0, 4000)}\n[... ${text.length - 4000} more characters]` : text}`);
  }
}
