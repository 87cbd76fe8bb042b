import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import autocannon from 'autocannon';
import { buildApp } from '../server/app';
import { ARGON2_COST, createPasswordService } from '../server/crypto/passwords';
import { runClusterBench } from './bench-cluster';
import { cliOptions } from './cli-args';

/**
 * `npm run bench:server`: how the sign-in endpoints scale with concurrency on loopback, and what one
 * password hash costs. A script, not a test. Bounded: at most --seconds per step (default 5, cap 30)
 * and 100k requests per step; concurrency 1, 4, 16, 64. Rate limits are off (one loopback client
 * would trip them at once; `npm run bench:security`, scripts/bench-load.ts, covers the limits and
 * bursts). Prints a table and writes build/bench-server.json.
 *
 * - authentication-state: a known email (no hashing: the cheap, most frequent call);
 * - login: a wrong password for a new email each time (none reaches the bot check), so every request hashes at the real cost
 *   (argon2id at OWASP's cost, 19456 KiB, unless --memory);
 * - one hash and one verify, timed alone (median of 20).
 *
 *   npx tsx scripts/bench-server.ts [--seconds 5] [--memory 19456]
 *
 * With --db sqlite|postgres, --instances or --users it measures N server processes on one database
 * instead (scripts/bench-cluster.ts: real processes behind a round-robin proxy, seeded users).
 */

const clusterMode = process.argv.slice(2).some((arg) => /^--(db|instances|users|connections)(=|$)/.test(arg));
const options = clusterMode ? { seconds: 5, memory: ARGON2_COST.memoryCost } : cliOptions({ numbers: { seconds: 5, memory: ARGON2_COST.memoryCost } });
const SECONDS = Math.min(options.seconds, 30);
const MEMORY_KIB = options.memory;
const COST = { ...ARGON2_COST, memoryCost: MEMORY_KIB };
const LEVELS = [1, 4, 16, 64];
const MAX_REQUESTS = 100_000;

interface Step {
  endpoint: string;
  connections: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

const json = { 'content-type': 'application/json' };

async function step(url: string, endpoint: string, connections: number, opts: Partial<autocannon.Options>): Promise<Step> {
  const result = await autocannon({ url, connections, duration: SECONDS, maxOverallRequests: MAX_REQUESTS, timeout: 20, ...opts } as autocannon.Options);
  return {
    endpoint,
    connections,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

async function hashCost(): Promise<{ hashMs: number; verifyMs: number }> {
  const passwords = createPasswordService(COST);
  const time = async (fn: () => Promise<unknown>) => {
    const samples: number[] = [];
    for (let i = 0; i < 20; i += 1) {
      const start = performance.now();
      await fn();
      samples.push(performance.now() - start);
    }
    return samples.sort((a, b) => a - b)[10] ?? 0;
  };
  const stored = await passwords.hash('Demo-Passw0rd!');
  return { hashMs: await time(() => passwords.hash('Demo-Passw0rd!')), verifyMs: await time(() => passwords.verify('Wrong-Passw0rd!', stored)) };
}

async function main(): Promise<void> {
  const cost = await hashCost();
  const app = await buildApp({ dbPath: ':memory:', nodeEnv: 'test', devTools: true, passwordCost: COST, rateLimit: false, logger: false });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const steps: Step[] = [];
  try {
    for (const connections of LEVELS) {
      steps.push(
        await step(`${base}/ws/account/authentication-state`, 'authentication-state', connections, {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ email: 'nomfa@demo.test' }),
        }),
      );
    }
    let n = 0;
    for (const connections of LEVELS) {
      steps.push(
        await step(`${base}/ws/account/login`, 'login (wrong password)', connections, {
          method: 'POST',
          headers: json,
          requests: [
            { setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify({ email: `bench${n++}@load.test`, password: 'Wrong-Passw0rd!' }) }) },
          ],
        } as Partial<autocannon.Options>),
      );
    }
  } finally {
    await app.close();
  }

  console.log(`\nServer on loopback, ${SECONDS} s per step, ${cpus().length} CPU(s), argon2id m=${MEMORY_KIB} KiB, rate limits off\n`);
  console.log(
    `${'endpoint'.padEnd(24)} ${'conns'.padStart(5)} ${'req/s'.padStart(8)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)} ${'requests'.padStart(9)} ${'non-2xx'.padStart(8)} ${'errors'.padStart(7)}`,
  );
  for (const s of steps) {
    console.log(
      `${s.endpoint.padEnd(24)} ${String(s.connections).padStart(5)} ${String(s.rps).padStart(8)} ${String(s.p50).padStart(7)} ${String(s.p99).padStart(7)} ${String(s.requests).padStart(9)} ${String(s.non2xx).padStart(8)} ${String(s.errors).padStart(7)}`,
    );
  }
  console.log(
    `\nOne password hash (argon2id m=${MEMORY_KIB} KiB): ${cost.hashMs.toFixed(1)} ms; one verify: ${cost.verifyMs.toFixed(1)} ms (median of 20, alone)`,
  );
  mkdirSync('build', { recursive: true });
  writeFileSync(
    'build/bench-server.json',
    JSON.stringify({ date: new Date().toISOString(), seconds: SECONDS, cpus: cpus().length, argon2MemoryKiB: MEMORY_KIB, passwordHash: cost, steps }, null, 2),
  );
  console.log('Report: build/bench-server.json');
}

(clusterMode ? runClusterBench(process.argv.slice(2)) : main()).catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
