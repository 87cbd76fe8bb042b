import { spawnSync } from 'node:child_process';
import { startPostgres } from './postgres';

/**
 * `npm run test:e2e:postgres`: the end-to-end suite with the reference server on a real PostgreSQL
 * (a throwaway cluster, scripts/postgres.ts, stopped at the end) instead of SQLite. One worker: the
 * specs reset the demo tenant through /dev/reset, which wipes the one database they share.
 * Arguments go to Playwright (a spec file, --grep …). Not part of `npm test` (it doubles the e2e
 * time); the server suites and the attack suites run on PostgreSQL there.
 */
const postgres = await startPostgres();
let status = 1;
try {
  const result = spawnSync('npx', ['tsx', 'scripts/e2e.ts', ...process.argv.slice(2)], {
    stdio: 'inherit',
    env: { ...process.env, DATABASE_URL: postgres.url, E2E_WORKERS: '1' },
  });
  status = result.status ?? 1;
} finally {
  postgres.stop();
}
process.exit(status);
