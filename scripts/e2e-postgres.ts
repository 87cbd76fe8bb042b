import { spawnSync } from 'node:child_process';

/**
 * `npm run test:e2e:postgres`: the end-to-end suite with every worker's reference server on a real
 * PostgreSQL (a throwaway cluster, a database per server: scripts/e2e.ts with E2E_POSTGRES=all)
 * instead of SQLite. Arguments go to Playwright (a spec file, --grep …). `npm test` runs the suite
 * with one of its two servers on PostgreSQL (E2E_POSTGRES=one).
 */
const result = spawnSync('npx', ['tsx', 'scripts/e2e.ts', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, E2E_POSTGRES: 'all' },
});
process.exit(result.status ?? 1);
