import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { startPostgres, type PostgresServer } from './postgres';

/**
 * `npm test`: everything, in the order a change can break it — build (validators package,
 * catalogue check + code generation, app bundle), lint (ESLint and Prettier, zero warnings), type
 * check, unit and component tests (vitest), end-to-end tests in Chromium (Playwright). Ends with
 * one summary line.
 * The unit stage gets a real PostgreSQL (scripts/postgres.ts, stopped at the end): DATABASE_URL for
 * the tests that run on both engines, FRONTDOOR_REQUIRE_POSTGRES=1 so that they fail, not skip, without it.
 */
interface Stage {
  name: string;
  command: string[];
  postgres?: boolean;
}

const stages: Stage[] = [
  { name: 'build', command: ['npm', 'run', 'build'] },
  { name: 'lint', command: ['npm', 'run', 'lint'] },
  { name: 'typecheck', command: ['npm', 'run', 'typecheck'] },
  {
    name: 'unit',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=build/vitest-report.json'],
    postgres: true,
  },
  { name: 'e2e', command: ['npx', 'tsx', 'scripts/e2e.ts'] },
];

mkdirSync('build', { recursive: true });
rmSync('build/vitest-report.json', { force: true });
rmSync('build/e2e-report.json', { force: true });

const failedStages: string[] = [];
let postgres: PostgresServer | undefined;
for (const stage of stages) {
  console.log(`\n=== ${stage.name}: ${stage.command.join(' ')}`);
  const started = Date.now();
  const [cmd, ...args] = stage.command;
  let env: NodeJS.ProcessEnv = process.env;
  if (stage.postgres) {
    try {
      postgres ??= await startPostgres();
      env = { ...process.env, DATABASE_URL: postgres.url, FRONTDOOR_REQUIRE_POSTGRES: '1' };
    } catch (error) {
      console.log((error as Error).message);
      failedStages.push('postgres');
      env = { ...process.env, FRONTDOOR_REQUIRE_POSTGRES: '1' };
    }
  }
  const result = spawnSync(cmd ?? 'npm', args, { stdio: 'inherit', env });
  if (stage.postgres && postgres) {
    postgres.stop();
    postgres = undefined;
  }
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  if (result.status !== 0) {
    console.log(`=== ${stage.name} FAILED after ${seconds}s`);
    failedStages.push(stage.name);
    // Later stages depend on the build; the others still run so one report shows everything.
    if (stage.name === 'build') break;
  } else {
    console.log(`=== ${stage.name} ok in ${seconds}s`);
  }
}

function counts(file: string, read: (report: Record<string, unknown>) => [number, number]): [number, number] {
  if (!existsSync(file)) return [0, 0];
  try {
    return read(JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>);
  } catch {
    return [0, 0];
  }
}

const [unitPassed, unitFailed] = counts('build/vitest-report.json', (r) => [Number(r.numPassedTests ?? 0), Number(r.numFailedTests ?? 0)]);
const [e2ePassed, e2eFailed] = counts('build/e2e-report.json', (r) => {
  const stats = (r.stats ?? {}) as Record<string, number>;
  return [Number(stats.expected ?? 0), Number(stats.unexpected ?? 0) + Number(stats.flaky ?? 0)];
});
// A failed stage whose report counted no failing test (build, type check, a crash) counts as one failure.
const reported: Record<string, number> = { unit: unitFailed, e2e: e2eFailed };
const stageFailures = failedStages.filter((name) => !reported[name]).length;
console.log(
  `\nunit: ${unitPassed} passed, ${unitFailed} failed; e2e: ${e2ePassed} passed, ${e2eFailed} failed${failedStages.length ? `; failed stages: ${failedStages.join(', ')}` : ''}`,
);
console.log(`total: ${unitPassed + e2ePassed} passed, ${unitFailed + e2eFailed + stageFailures} failed`);
process.exit(failedStages.length > 0 ? 1 : 0);
