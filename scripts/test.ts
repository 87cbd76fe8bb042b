import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { findChromium } from '../tooling/browser';
import { run, type Outcome, type Task } from './parallel';
import { findPostgresBin, startPostgres, type PostgresServer } from './postgres';

/**
 * `npm test`: everything — build (validators package, catalogue check + code generation, app bundle),
 * lint (ESLint and Prettier, zero warnings), type check, unit and component tests (vitest), end-to-end
 * tests in Chromium (Playwright). Ends with each stage's time and one summary line.
 *
 * On two cores the stages that need little of each other share the machine: code generation (the
 * validators package and src/generated, a few seconds), lint (which reads neither) and `tools`
 * (Chromium and PostgreSQL found, or installed with apt-get on a fresh machine) start together; the
 * build and the type check (which reads src/generated) follow the generation, side by side (the
 * build generates again, which rewrites no unchanged file: scripts/generate.ts). The unit and e2e
 * stages, which keep both cores busy themselves and have timeouts, run alone, one after the other.
 * Output of stages running side by side is printed whole when each ends.
 * The unit stage gets a real PostgreSQL (scripts/postgres.ts, stopped at the end): DATABASE_URL for
 * the tests that run on both engines, FRONTDOOR_REQUIRE_POSTGRES=1 so that they fail, not skip, without it.
 * The e2e stage starts one too, for one of its two servers (E2E_POSTGRES=one, scripts/e2e.ts).
 */
if (process.argv[2] === '--tools') {
  // The `tools` stage, in a child process (finding or installing is synchronous). A tool that cannot be
  // had is reported here and fails the stage that needs it (unit, e2e), where it is counted.
  for (const find of [findPostgresBin, findChromium]) {
    try {
      find();
    } catch (error) {
      console.log((error as Error).message);
    }
  }
  process.exit(0);
}

interface Stage {
  name: string;
  command: string[];
  /** Stages that must have ended first. */
  after: string[];
  /** Skipped when this stage failed (they read what it makes). */
  needs?: 'build' | 'generate';
  /** Runs alone: its output goes straight to the terminal. */
  alone?: boolean;
  postgres?: boolean;
  /** Variables of its own (the caller's environment wins). */
  env?: Record<string, string>;
}

const stages: Stage[] = [
  { name: 'generate', command: ['sh', '-c', 'node packages/validators/scripts/build.mjs && npx tsx scripts/generate.ts'], after: [] },
  { name: 'lint', command: ['npm', 'run', 'lint'], after: [] },
  { name: 'tools', command: ['npx', 'tsx', 'scripts/test.ts', '--tools'], after: [] },
  // The generate stage has built the validators package, which the type check now reads.
  { name: 'build', command: ['npm', 'run', 'build'], after: ['generate'], env: { FRONTDOOR_VALIDATORS_BUILT: '1' } },
  { name: 'typecheck', command: ['npm', 'run', 'typecheck'], after: ['generate'], needs: 'generate' },
  {
    name: 'unit',
    command: ['npx', 'vitest', 'run', '--reporter=default', '--reporter=json', '--outputFile.json=build/vitest-report.json'],
    after: ['build', 'lint', 'tools', 'typecheck'],
    needs: 'build',
    alone: true,
    postgres: true,
  },
  // One of the two browser workers' servers on PostgreSQL, the other on SQLite (scripts/e2e.ts).
  { name: 'e2e', command: ['npx', 'tsx', 'scripts/e2e.ts'], after: ['unit'], needs: 'build', alone: true, env: { E2E_POSTGRES: 'one' } },
];

mkdirSync('build', { recursive: true });
rmSync('build/vitest-report.json', { force: true });
rmSync('build/e2e-report.json', { force: true });

const startedAll = Date.now();
const done = new Map<string, Outcome | 'skipped'>();
const failedStages: string[] = [];

async function runStage(stage: Stage): Promise<void> {
  const needed = stage.needs && done.get(stage.needs);
  if (stage.needs && (needed === 'skipped' || !needed?.ok)) {
    console.log(`\n=== ${stage.name} skipped: the ${stage.needs} stage failed`);
    done.set(stage.name, 'skipped');
    return;
  }
  const started = Date.now();
  const [command = 'npm', ...args] = stage.command;
  if (stage.alone) console.log(`\n=== ${stage.name}: ${stage.command.join(' ')}`);
  let env: NodeJS.ProcessEnv = { ...stage.env, ...process.env };
  let postgres: PostgresServer | undefined;
  if (stage.postgres) {
    try {
      postgres = await startPostgres();
      env = { ...process.env, DATABASE_URL: postgres.url, FRONTDOOR_REQUIRE_POSTGRES: '1' };
    } catch (error) {
      console.log((error as Error).message);
      failedStages.push('postgres');
      env = { ...process.env, FRONTDOOR_REQUIRE_POSTGRES: '1' };
    }
  }
  const task: Task = { name: stage.name, command, args, env, stream: stage.alone === true };
  // The stage's time includes starting its PostgreSQL.
  const outcome = { ...(await run(task)), seconds: (Date.now() - started) / 1000 };
  postgres?.stop();
  if (!stage.alone) {
    console.log(`\n=== ${stage.name}: ${stage.command.join(' ')}`);
    if (outcome.output.trim()) console.log(outcome.output.trimEnd());
  }
  console.log(outcome.ok ? `=== ${stage.name} ok in ${outcome.seconds.toFixed(1)}s` : `=== ${stage.name} FAILED after ${outcome.seconds.toFixed(1)}s`);
  if (!outcome.ok) failedStages.push(stage.name);
  done.set(stage.name, outcome);
}

// Each stage starts as soon as the stages it comes after have ended (whatever their result).
const running = new Map<string, Promise<void>>();
const start = (stage: Stage): Promise<void> => {
  let promise = running.get(stage.name);
  if (!promise) {
    const before = stages.filter((s) => stage.after.includes(s.name));
    promise = Promise.all(before.map(start)).then(() => runStage(stage));
    running.set(stage.name, promise);
  }
  return promise;
};
await Promise.all(stages.map(start));

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
const times = stages.map(({ name }) => {
  const outcome = done.get(name);
  return `${name} ${outcome === 'skipped' || !outcome ? 'skipped' : `${outcome.seconds.toFixed(0)}s`}`;
});
console.log(
  `\nstages: ${times.join(', ')}; wall ${((Date.now() - startedAll) / 1000).toFixed(0)}s (generate, lint and tools, then build and type check, side by side)`,
);
console.log(
  `unit: ${unitPassed} passed, ${unitFailed} failed; e2e: ${e2ePassed} passed, ${e2eFailed} failed${failedStages.length ? `; failed stages: ${failedStages.join(', ')}` : ''}`,
);
console.log(`total: ${unitPassed + e2ePassed} passed, ${unitFailed + e2eFailed + stageFailures} failed`);
process.exit(failedStages.length > 0 ? 1 : 0);
