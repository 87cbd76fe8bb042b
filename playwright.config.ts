import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests: the real built app (dist/app) served by the real reference server with a
 * fresh in-memory demo tenant, driven in Chromium. `npm run test:e2e` (scripts/e2e.ts) finds
 * the browser and sets CHROMIUM_PATH.
 */
export const E2E_PORT = Number(process.env.E2E_PORT ?? 8181);

export default defineConfig({
  testDir: 'tests/e2e',
  outputDir: 'build/e2e-results',
  // One worker: the tests share one server and its demo tenant (attempt counters, outbox).
  workers: 1,
  fullyParallel: false,
  forbidOnly: true,
  retries: 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: [['list'], ['json', { outputFile: 'build/e2e-report.json' }]],
  use: {
    baseURL: `http://localhost:${E2E_PORT}`,
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
    trace: 'off',
  },
  webServer: {
    command: 'npx tsx server/main.ts',
    url: `http://127.0.0.1:${E2E_PORT}/healthz`,
    // DEV_TOOLS=1: the demo tenant, /dev/outbox and /dev/reset, as `npm start` has them. With
    // DATABASE_URL in the environment (a database of its own: /dev/reset wipes it) the server runs on PostgreSQL.
    env: {
      PORT: String(E2E_PORT),
      HOST: '127.0.0.1',
      ...(process.env.DATABASE_URL ? {} : { DB_PATH: ':memory:' }),
      NODE_ENV: 'test',
      DEV_TOOLS: '1',
      LOG_LEVEL: 'warn',
    },
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
  },
});
