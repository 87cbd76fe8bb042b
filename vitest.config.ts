import { defineConfig } from 'vitest/config';

// Two projects: the app's tests (tests/) and the validators package's own (packages/validators/test).
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
    ],
  },
});
