import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import { openDatabase, type Database } from '../server/db/open';
import { ARGON2_COST, createPasswordService } from '../server/crypto/passwords';
import { buildServer } from './build-server';
import { startPostgres } from './postgres';
import { listeningPort } from './server-output';
import { startRoundRobinProxy, type RoundRobinProxy } from './round-robin-proxy';

/**
 * `npm run bench:server -- --db sqlite|postgres --instances 1,2,4 [--users 1000,100000,1000000]`:
 * sign-in throughput of N server processes on one database, as they would run in production
 * (`node dist/server/main.js`, NODE_ENV=production, rate limits on, argon2id at the production cost),
 * behind a round-robin TCP proxy (scripts/round-robin-proxy.ts: each connection to the next instance),
 * with U users seeded (one INSERT … SELECT per 50,000 users; the same database grows from one user
 * count to the next). For each (users, instances):
 * - authentication-state of a random seeded user (an index lookup; no hashing);
 * - login of a random seeded user with the right password (one argon2id verify, a session written).
 * Each request comes from one of 1,024 addresses (X-Forwarded-For from the trusted proxy), new ones
 * for every step, so the per-address limits (300 calls a minute) never answer: what is measured is
 * the work, including each limit's counter written to the database.
 * Prints requests/s and p50/p95/p99 latency (exact, from every response's time), and the CPU time the
 * instances and the database server spent per request (Linux /proc: it depends far less than the
 * throughput on what else the machine runs; 1000 ms / that = requests a second per idle core), and writes
 * build/bench-cluster-<db>.json. PostgreSQL: DATABASE_URL, else a throwaway cluster (scripts/postgres.ts,
 * fsync off: a bench of the server, not of the disk).
 *
 *   npx tsx scripts/bench-server.ts --db postgres --instances 1,2,4 --users 1000,100000 [--seconds 5] [--connections 16]
 */
const PASSWORD = 'Demo-Passw0rd!';
const APP_SECRET = 'bench-app-secret-0123456789-abcdefghijklmnop';
const SEED_BATCH = 50_000;

interface Options {
  db: 'sqlite' | 'postgres';
  instances: number[];
  users: number[];
  seconds: number;
  connections: number;
}

function list(value: string, name: string): number[] {
  const parts = value.split(',').map((v) => Number(v.trim().replace(/_/g, '').replace(/k$/i, '000').replace(/m$/i, '000000')));
  if (parts.some((n) => !Number.isInteger(n) || n <= 0))
    throw new Error(`--${name} takes positive whole numbers separated by commas (1k and 1m allowed), not "${value}"`);
  return parts;
}

export function clusterOptions(args: string[]): Options {
  const { values } = parseArgs({
    args,
    options: {
      db: { type: 'string', default: 'sqlite' },
      instances: { type: 'string', default: '1,2,4' },
      users: { type: 'string', default: '1000,100000,1000000' },
      seconds: { type: 'string', default: '5' },
      connections: { type: 'string', default: '16' },
    },
    strict: true,
    allowPositionals: false,
  });
  if (values.db !== 'sqlite' && values.db !== 'postgres') throw new Error(`--db is sqlite or postgres, not "${values.db}"`);
  const [seconds] = list(values.seconds, 'seconds');
  const [connections] = list(values.connections, 'connections');
  return {
    db: values.db,
    instances: list(values.instances, 'instances'),
    users: list(values.users, 'users').sort((x, y) => x - y),
    seconds: Math.min(seconds ?? 5, 60),
    connections: connections ?? 16,
  };
}

interface Instance {
  child: ChildProcess;
  port: number;
  output: () => string;
}

/** Clock ticks a second of /proc/<pid>/stat times (USER_HZ: 100 on every Linux build that matters). */
const TICKS_PER_SECOND = 100;

/** utime, stime, cutime, cstime of a process (fields 14-17 of /proc/<pid>/stat), in ticks; undefined when it is gone or there is no /proc. */
function procTimes(pid: number): { own: number; children: number; ppid: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const n = (i: number) => Number(fields[i]);
    return { own: n(11) + n(12), children: n(13) + n(14), ppid: n(1) };
  } catch {
    return undefined;
  }
}

/**
 * CPU milliseconds used so far by the instances and, for a local PostgreSQL, by its server: the
 * postmaster with the backends it has reaped (cutime) and those still running.
 */
function cpuMs(instances: readonly Instance[], postmaster: number | undefined): number {
  let ticks = 0;
  for (const instance of instances) ticks += procTimes(instance.child.pid ?? -1)?.own ?? 0;
  if (postmaster !== undefined) {
    const main = procTimes(postmaster);
    ticks += (main?.own ?? 0) + (main?.children ?? 0);
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const child = procTimes(Number(entry));
      if (child?.ppid === postmaster) ticks += child.own;
    }
  }
  return (ticks * 1000) / TICKS_PER_SECOND;
}

/** The postmaster of a PostgreSQL on this machine (the parent of our backend), or undefined. */
async function localPostmaster(db: Database): Promise<number | undefined> {
  if (db.engine !== 'postgres' || !existsSync('/proc/self/stat')) return undefined;
  const row = await db.get<{ pid: number }>('SELECT pg_backend_pid() AS pid');
  return row ? procTimes(Number(row.pid))?.ppid : undefined;
}

function startInstance(env: Record<string, string>): Promise<Instance> {
  const child = spawn(process.execPath, ['dist/server/main.js'], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      NODE_ENV: 'production',
      APP_SECRET,
      PUBLIC_URL: 'http://localhost:8080',
      PORT: '0',
      HOST: '127.0.0.1',
      TRUST_PROXY: '127.0.0.1',
      LOG_LEVEL: 'warn',
      // Nothing is delivered in a benchmark.
      DELIVERY: 'hold',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  return new Promise((resolve, reject) => {
    const timer = setInterval(() => {
      const port = listeningPort(out);
      if (port) {
        clearInterval(timer);
        resolve({ child, port: Number(port), output: () => out });
      } else if (child.exitCode !== null) {
        clearInterval(timer);
        reject(new Error(`an instance did not start:\n${out}`));
      }
    }, 100);
  });
}

async function stopInstance(instance: Instance): Promise<void> {
  if (instance.child.exitCode !== null) return;
  const exited = new Promise((resolve) => instance.child.once('exit', resolve));
  instance.child.kill('SIGTERM');
  await exited;
}

/** Seeds users 1..count that are missing (from `from`): active technicians without MFA, all with the same password hash. */
async function seedUsers(db: Database, from: number, count: number, hash: string): Promise<void> {
  const t = Date.now();
  for (let start = from; start <= count; start += SEED_BATCH) {
    const end = Math.min(count, start + SEED_BATCH - 1);
    await db.run(
      `WITH RECURSIVE seq(n) AS (SELECT CAST(? AS BIGINT) UNION ALL SELECT n + 1 FROM seq WHERE n < ?)
      INSERT INTO users (uid, email, user_type, state, password_hash, mfa_required, language, created_at, updated_at)
      SELECT 'bench-' || n, 'u' || n || '@bench.test', 'TECHNICIAN', 'active', ?, 0, 'en-us', ?, ? FROM seq`,
      [start, end, hash, t, t],
    );
  }
}

export interface ClusterStep {
  db: string;
  users: number;
  instances: number;
  endpoint: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  errors: number;
  load1: number;
  /** CPU ms of the instances and the database server per answered request. */
  cpuMsPerRequest: number;
  /** Up to five different answers other than 2xx (status and the start of the body). */
  failures: string[];
}

/** The p-th percentile of sorted latencies (nearest rank), to 0.1 ms. */
const percentile = (sorted: number[], p: number) =>
  sorted.length ? Math.round(sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]! * 10) / 10 : 0;

let stepNumber = 0;

function measure(
  url: string,
  body: () => string,
  options: Options,
  seconds: number,
  cpu: () => number,
): Promise<Omit<ClusterStep, 'db' | 'users' | 'instances' | 'endpoint'>> {
  // New addresses for every step: the per-address windows (a minute) never fill up across steps.
  const block = stepNumber++ % 250;
  let n = 0;
  const address = () => {
    const i = n++ % 1024;
    return `10.${block}.${i >> 8}.${(i & 255) + 1}`;
  };
  const latencies: number[] = [];
  const failures = new Set<string>();
  return new Promise((resolve, reject) => {
    const cpuBefore = cpu();
    const started = performance.now();
    const instance = autocannon(
      {
        url,
        method: 'POST',
        connections: options.connections,
        duration: seconds,
        timeout: 30,
        headers: { 'content-type': 'application/json' },
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({ ...req, headers: { ...req.headers, 'x-forwarded-for': address() }, body: body() }),
            onResponse: (status: number, answer: string) => {
              if (status >= 300 && failures.size < 5) failures.add(`${status} ${answer.slice(0, 160)}`);
            },
          },
        ],
      } as autocannon.Options,
      (error, result) => {
        if (error) return reject(error as Error);
        const elapsed = (performance.now() - started) / 1000;
        const cpuSpent = cpu() - cpuBefore;
        latencies.sort((x, y) => x - y);
        resolve({
          connections: options.connections,
          requests: latencies.length,
          rps: Math.round(result['2xx'] / elapsed),
          p50: percentile(latencies, 50),
          p95: percentile(latencies, 95),
          p99: percentile(latencies, 99),
          non2xx: result.non2xx,
          errors: result.errors + result.timeouts,
          load1: Math.round(loadavg()[0]! * 10) / 10,
          cpuMsPerRequest: latencies.length ? Math.round((cpuSpent / latencies.length) * 100) / 100 : 0,
          failures: [...failures],
        });
      },
    );
    instance.on('response', (_client, _status, _bytes, ms) => latencies.push(ms));
  });
}

async function probe(base: string, users: number): Promise<void> {
  const res = await fetch(`${base}/ws/account/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': '10.255.0.1' },
    body: JSON.stringify({ email: `u${users}@bench.test`, password: PASSWORD }),
  });
  const body = (await res.json()) as { resultCode?: string };
  if (body.resultCode !== 'SUCCESS') throw new Error(`a seeded user does not sign in: ${res.status} ${JSON.stringify(body)}`);
}

type ClusterOptions = ReturnType<typeof clusterOptions>;

/** The database the instances share: the given PostgreSQL, a throwaway one, or an SQLite file in a temporary folder. */
async function benchDatabase(options: ClusterOptions): Promise<{ env: Record<string, string>; stop?: () => void }> {
  if (options.db === 'postgres') {
    if (process.env.DATABASE_URL) return { env: { DATABASE_URL: process.env.DATABASE_URL } };
    const postgres = await startPostgres();
    return { env: { DATABASE_URL: postgres.url }, stop: () => postgres.stop() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'fd-bench-'));
  return { env: { DB_PATH: join(dir, 'bench.sqlite') }, stop: () => rmSync(dir, { recursive: true, force: true }) };
}

/** The two endpoints measured with `instances` instances behind the round-robin proxy (each after a warm-up). */
async function measureInstances(
  env: Record<string, string>,
  options: ClusterOptions,
  users: number,
  instances: number,
  postmaster: Awaited<ReturnType<typeof localPostmaster>>,
) {
  const running: Instance[] = [];
  let proxy: RoundRobinProxy | undefined;
  const steps: ClusterStep[] = [];
  try {
    for (let i = 0; i < instances; i += 1) running.push(await startInstance(env));
    proxy = await startRoundRobinProxy(running.map((r) => ({ host: '127.0.0.1', port: r.port })));
    const base = `http://127.0.0.1:${proxy.port}`;
    await probe(base, users);
    const someone = () => JSON.stringify({ email: `u${1 + Math.floor(Math.random() * users)}@bench.test` });
    const signIn = () => JSON.stringify({ email: `u${1 + Math.floor(Math.random() * users)}@bench.test`, password: PASSWORD });
    for (const [endpoint, path, body] of [
      ['authentication-state', '/ws/account/authentication-state', someone],
      ['login', '/ws/account/login', signIn],
    ] as const) {
      const cpu = () => cpuMs(running, postmaster);
      await measure(`${base}${path}`, body, options, 1, cpu); // warm-up (JIT, pools, caches)
      const step = { db: options.db, users, instances, endpoint, ...(await measure(`${base}${path}`, body, options, options.seconds, cpu)) };
      steps.push(step);
      console.log(
        `${options.db} users=${users} instances=${instances} ${endpoint}: ${step.rps} req/s, p50 ${step.p50} ms, p95 ${step.p95} ms, p99 ${step.p99} ms, ${step.cpuMsPerRequest} CPU ms/request (${step.requests} requests, ${step.non2xx} non-2xx, ${step.errors} errors, load ${step.load1})${step.failures.map((f) => `\n  non-2xx: ${f}`).join('')}`,
      );
    }
    // A 5xx is a bug, not load: show what the instances logged (LOG_LEVEL=warn: errors only).
    if (steps.some((step) => step.failures.some((f) => f.startsWith('5'))))
      for (const [i, r] of running.entries()) console.log(`instance ${i + 1} logged:\n${r.output().slice(-4000)}`);
    return steps;
  } finally {
    await proxy?.close();
    await Promise.all(running.map(stopInstance));
  }
}

/** The table on the console and build/bench-cluster-<engine>.json. */
function report(options: ClusterOptions, steps: ClusterStep[], seeding: Array<{ users: number; seconds: number }>): void {
  const header = `| engine | users | instances | endpoint | req/s | p50 ms | p95 ms | p99 ms | CPU ms/req | requests | non-2xx | load |`;
  console.log(
    `\n${cpus().length} CPU(s) (${cpus()[0]?.model ?? '?'}), ${options.seconds} s per step, ${options.connections} connections through the round-robin proxy, argon2id m=${ARGON2_COST.memoryCost} KiB\n`,
  );
  console.log(header);
  console.log('|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|---:|');
  for (const s of steps)
    console.log(
      `| ${s.db} | ${s.users.toLocaleString('en')} | ${s.instances} | ${s.endpoint} | ${s.rps} | ${s.p50} | ${s.p95} | ${s.p99} | ${s.cpuMsPerRequest} | ${s.requests} | ${s.non2xx} | ${s.load1} |`,
    );
  mkdirSync('build', { recursive: true });
  const file = `build/bench-cluster-${options.db}.json`;
  writeFileSync(
    file,
    JSON.stringify(
      { date: new Date().toISOString(), cpus: cpus().length, seconds: options.seconds, connections: options.connections, seeding, steps },
      null,
      2,
    ),
  );
  console.log(`Report: ${file}`);
}

export async function runClusterBench(args: string[]): Promise<void> {
  const options = clusterOptions(args);
  // The numbers are of the code in the tree: the server is compiled first (npm run build:server, a few seconds).
  const built = buildServer();
  console.log(`server compiled into dist/server (${built.compiled} modules)`);
  const database = await benchDatabase(options);
  const { env } = database;
  const db = openDatabase(options.db === 'postgres' ? { engine: 'postgres', url: env.DATABASE_URL! } : { engine: 'sqlite', path: env.DB_PATH! });
  const steps: ClusterStep[] = [];
  const seeding: { users: number; seconds: number }[] = [];
  try {
    await db.migrate();
    const postmaster = await localPostmaster(db);
    const hash = await createPasswordService(ARGON2_COST).hash(PASSWORD);
    let seeded = 0;
    for (const users of options.users) {
      const t0 = performance.now();
      await seedUsers(db, seeded + 1, users, hash);
      seeded = users;
      const seconds = Math.round((performance.now() - t0) / 100) / 10;
      seeding.push({ users, seconds });
      console.log(`seeded ${users.toLocaleString('en')} users (${seconds} s)`);
      for (const instances of options.instances) steps.push(...(await measureInstances(env, options, users, instances, postmaster)));
    }
  } finally {
    await db.close();
    database.stop?.();
  }
  report(options, steps, seeding);
}
