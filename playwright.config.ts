import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS } from './tooling/browser';

/**
 * End-to-end tests: the real built app (dist/app) served by the real reference server with a
 * fresh in-memory demo tenant, driven in Chromium. `npm run test:e2e` (scripts/e2e.ts) finds
 * the browser and sets CHROMIUM_PATH.
 *
 * One worker per server: the tests of a worker share its server and demo tenant (attempt counters,
 * outbox), so each worker gets a server of its own, on the ports in E2E_PORTS (scripts/e2e.ts: E2E_PORT,
 * then free ports, one per worker). Without E2E_PORTS: one worker, one server on E2E_PORT (default 8181).
 * A worker finds its port by its TEST_PARALLEL_INDEX (set before this file is read in the worker).
 */
const PORTS = (process.env.E2E_PORTS ?? process.env.E2E_PORT ?? '8181').split(',').map(Number);
/** Per port, the server's PostgreSQL database (scripts/e2e.ts, E2E_POSTGRES); empty: an in-memory SQLite. */
const DATABASES = (process.env.E2E_DATABASES ?? '').split(',');
export const E2E_PORT = PORTS[Number(process.env.TEST_PARALLEL_INDEX ?? 0)] ?? PORTS[0] ?? 8181;

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'build/e2e-results',
  workers: PORTS.length,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 60_000,
  // A 2-core CI machine runs two browsers, two servers and axe side by side: answers can take seconds,
  // and a sign-in is a chain (the operation, the passkey offer's chunk and call, then the landing
  // page). These are waits for an outcome, not timed assertions (speed is measured by `npm run bench`):
  // a generous wait costs nothing when the answer comes, and fails the test when it never does.
  expect: { timeout: 20_000 },
  reporter: [['list'], ['json', { outputFile: 'build/e2e-report.json' }]],
  // Text snapshots only (what the accessibility tree announces, tests/e2e/a11y.spec.ts): the same on
  // every platform, so no platform or project in their names. `--update-snapshots` writes them.
  snapshotPathTemplate: '{testDir}/{testFileName}-snapshots/{arg}{ext}',
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
    },
    trace: 'off',
  },
  // The studio's specs edit screens/ and locales/ through their server (and put them back): one at a
  // time, never beside each other; every other spec runs beside them.
  projects: [
    { name: 'app', testIgnore: /studio[^/]*\.spec\.ts$/ },
    { name: 'studio', testMatch: /studio[^/]*\.spec\.ts$/, workers: 1 },
  ],
  // tests/e2e/serve.ts: server/main.ts on its own copy of dist/app. DEV_TOOLS=1: the demo tenant,
  // /dev/outbox and /dev/reset, as `npm start` has them. A server with a database in E2E_DATABASES
  // runs on PostgreSQL (a database of its own: /dev/reset wipes it), the others on SQLite.
  webServer: PORTS.map((port, i) => ({
    command: 'npx tsx tests/e2e/serve.ts',
    url: `http://127.0.0.1:${port}/healthz`,
    env: {
      PORT: String(port),
      HOST: '127.0.0.1',
      ...(DATABASES[i] ? { DATABASE_URL: DATABASES[i] } : { DB_PATH: ':memory:' }),
      NODE_ENV: 'test',
      DEV_TOOLS: '1',
      LOG_LEVEL: 'warn',
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
  })),
});
