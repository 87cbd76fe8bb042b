import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// Two projects: the app's tests (tests/) and the validators package's own (packages/validators/test).
export default defineConfig({
  test: {
    // vitest's default is one worker fewer than the cores: on a 2-core machine (CI) one file at a
    // time. The files are independent (temporary folders, a database each, ports 0), and most wait
    // on I/O or child processes part of the time: two at a time on two cores.
    maxWorkers: Math.max(2, availableParallelism() - 1),
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
