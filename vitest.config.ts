import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import { slimRjsf } from './scripts/slim-rjsf.ts';

/**
 * The files that take longest (a minute or more on two cores: loops over the whole catalogue, child
 * processes, npm pack), started first so that no worker is left with one of them at the end. vitest
 * orders by the last run's times when it has them, but a fresh machine (CI) has none and orders by
 * file size. A file missing here only runs in vitest's order; build/vitest-report.json has the times.
 */
const SLOWEST = [
  'tests/catalogue/mutation.test.ts',
  'tests/security/issue-15/codes-links-bot-check.test.ts',
  'tests/security/issue-24/rebinding-lockout-flooding.test.ts',
  'packages/validators/test/consumer.test.ts',
  'tests/catalogue/check.test.ts',
  'tests/catalogue/check-human.test.ts',
  'tests/catalogue/recipes.test.ts',
  'tests/i18n/xliff.test.ts',
  'tests/server/security-fuzz.test.ts',
  'tests/server/delivery/kill.test.ts',
  'tests/build/server-build.test.ts',
  'tests/build/runtime-stage.test.ts',
  'tests/cluster/two-instances.postgres.test.ts',
  'tests/cluster/two-instances.sqlite.test.ts',
];

class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOWEST.findIndex((path) => file.moduleId.endsWith(`/${path}`));
      return index < 0 ? SLOWEST.length : index;
    };
    // Array.prototype.sort is stable: the rest keep vitest's order.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

/**
 * The server suite and the attack suites: node only, no module mocks or stubbed globals, each file
 * with its own apps and databases. They run with `isolate: false`, the files of a worker sharing its
 * modules: each file no longer imports the whole server again (that import was more than half of
 * their CPU time). A setup file is still run again for each file (tests/server/postgres-setup.ts).
 */
const SERVER_SUITES = ['tests/server/**/*.test.ts', 'tests/security/issue-*/*.test.ts'];

/**
 * With DATABASE_URL (npm test starts a throwaway PostgreSQL: scripts/postgres.ts) the server suite and
 * the attack suites run a second time with every app on PostgreSQL (tests/server/test-database.ts: a
 * database per file, a schema per app), subfolders included (delivery/, duo/, sso/: their files open
 * the run's engine, test-database.ts). Left out: the files that run both engines themselves
 * (data-layer, admin, production-start, delivery/kill and queue, sso/admin, routes and saml) and those
 * without a server database (config, environment, ip-allow-list).
 */
const postgres = process.env.DATABASE_URL
  ? [
      {
        test: {
          name: 'postgres',
          include: SERVER_SUITES,
          exclude: [
            'tests/server/data-layer.test.ts',
            'tests/server/admin.test.ts',
            'tests/server/production-start.test.ts',
            'tests/server/config.test.ts',
            'tests/server/environment.test.ts',
            'tests/server/ip-allow-list.test.ts',
            'tests/server/delivery/kill.test.ts',
            'tests/server/delivery/queue.test.ts',
            'tests/server/sso/admin.test.ts',
            'tests/server/sso/routes.test.ts',
            'tests/server/sso/saml.test.ts',
            // Runs both engines itself (tests/server/db-engines.ts), whatever the project.
            'tests/server/studio-review.test.ts',
          ],
          environment: 'node',
          // As in the project `server`: the files share their worker's modules (see there).
          isolate: false,
          env: { FRONTDOOR_TEST_ENGINE: 'postgres' },
          // Each app gets a migrated schema of its own: a few hundred ms more than an in-memory SQLite.
          // Not timed tests (as in the project `server`).
          testTimeout: 60_000,
          hookTimeout: 30_000,
          setupFiles: ['tests/server/postgres-setup.ts'],
        },
      },
    ]
  : [];

// Projects: the app's tests (tests/), the engine's screen tests again on the browser build's rjsf graph, the server and attack suites (tests/server, tests/security/issue-*),
// the validators package's own (packages/validators/test), and the server suites again on PostgreSQL
// when there is one.
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: on a 2-core machine (CI) one file at a
    // time. The files are independent (temporary folders, a database each, ports 0), and most wait
    // on I/O or child processes part of the time: two at a time on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    sequence: { sequencer: SlowestFirst },
    projects: [
      {
        test: {
          name: 'app',
          include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
          exclude: ['tests/e2e/**', 'node_modules/**', ...SERVER_SUITES],
          environment: 'node',
          setupFiles: ['tests/dom-setup.ts'],
          // Not timed tests: the first test of a jsdom file loads React and the catalogue, which takes
          // seconds on a busy two-core machine. A hung test still fails, after 20 s.
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        // The engine's screen tests on the browser build's module graph: rjsf's modules swapped as
        // vite.config.ts swaps them (scripts/slim-rjsf.ts). rjsf is inlined so that the swap applies to
        // its own imports; the setup file refuses the stock graph.
        plugins: [slimRjsf()],
        test: {
          name: 'app-slim-rjsf',
          include: ['tests/engine/*-screen.test.tsx'],
          environment: 'node',
          setupFiles: ['tests/dom-setup.ts', 'tests/engine/slim-rjsf-graph.ts'],
          server: { deps: { inline: [/@rjsf\//, /markdown-to-jsx/] } },
          testTimeout: 20_000,
          hookTimeout: 30_000,
        },
      },
      {
        test: {
          name: 'server',
          include: SERVER_SUITES,
          environment: 'node',
          isolate: false,
          // Not timed tests: a test that solves several proof-of-work challenges (the bot check) or
          // hashes many passwords is CPU work, which took more than 20 s beside another file on a
          // loaded two-core machine. A hung test still fails, after 60 s.
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      'packages/validators',
      ...postgres,
    ],
  },
});
