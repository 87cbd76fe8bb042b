import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/**
 * The files that take longest (a minute or more on two cores: loops over the whole catalogue, child
 * processes, npm pack), started first so that no worker is left with one of them at the end. vitest
 * orders by the last run's times when it has them, but a fresh machine (CI) has none and orders by
 * file size. A file missing here only runs in vitest's order; build/vitest-report.json has the times.
 */
const SLOWEST = [
  'tests/catalogue/mutation.test.ts',
  'tests/security/attacks.test.ts',
  'packages/validators/test/consumer.test.ts',
  'tests/catalogue/check.test.ts',
  'tests/catalogue/check-human.test.ts',
  'tests/catalogue/recipes.test.ts',
  'tests/i18n/xliff.test.ts',
  'tests/server/security-fuzz.test.ts',
  'tests/build/server-build.test.ts',
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

// Two projects: the app's tests (tests/) and the validators package's own (packages/validators/test).
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
          exclude: ['tests/e2e/**', 'node_modules/**'],
          environment: 'node',
        },
      },
      'packages/validators',
    ],
  },
});
