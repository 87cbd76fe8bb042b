import { defineConfig } from 'vitest/config';

/**
 * With DATABASE_URL (npm test starts a throwaway PostgreSQL: scripts/postgres.ts) the server suite and
 * the attack suites run a second time with every app on PostgreSQL (tests/server/test-database.ts: a
 * database per file, a schema per app). Left out: the files that run both engines themselves
 * (data-layer, admin, delivery/, sso/, duo/) and those without a server database (config, ip-allow-list).
 */
const postgres = process.env.DATABASE_URL
  ? [
      {
        test: {
          name: 'postgres',
          include: ['tests/server/*.test.ts', 'tests/security/attacks*.test.ts'],
          exclude: ['tests/server/data-layer.test.ts', 'tests/server/admin.test.ts', 'tests/server/config.test.ts', 'tests/server/ip-allow-list.test.ts'],
          environment: 'node',
          env: { FRONTDOOR_TEST_ENGINE: 'postgres' },
          // Each app gets a migrated schema of its own: a few hundred ms more than an in-memory SQLite.
          testTimeout: 30_000,
          hookTimeout: 30_000,
          setupFiles: ['tests/server/postgres-setup.ts'],
        },
      },
    ]
  : [];

// Projects: the app's tests (tests/), the validators package's own (packages/validators/test), and
// the server suite again on PostgreSQL when there is one.
export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'app',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/e2e/**', 'node_modules/**'],
          environment: 'node',
        },
      },
      'packages/validators',
      ...postgres,
    ],
  },
});
