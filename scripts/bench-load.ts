/**
 * `npm run bench:security`: load on the sign-in endpoints with autocannon, loopback only, bounded in
 * time and request count. Reports req/s and p99 latency for authentication-state and login (a wrong
 * password: the costly path, a full argon2id hash at the production cost), then a burst from one address to
 * show the per-IP limit answering 429 cheaply, and checks the server is still up after each.
 *
 *   npx tsx scripts/bench-load.ts [--seconds 10] [--connections 20] [--memory 19456]
 */
import autocannon from 'autocannon';
import { buildApp } from '../server/app';
import { ARGON2_COST } from '../server/crypto/passwords';
import { cliOptions } from './cli-args';

const options = cliOptions({ numbers: { seconds: 10, connections: 20, memory: ARGON2_COST.memoryCost } });
const seconds = Math.min(options.seconds, 60);
const connections = Math.min(options.connections, 200);
const memoryKiB = options.memory;
const passwordCost = { ...ARGON2_COST, memoryCost: memoryKiB };
const MAX_REQUESTS = 200_000;

interface Row {
  scenario: string;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  statuses: string;
  errors: number;
}

async function run(url: string, scenario: string, opts: Partial<autocannon.Options>): Promise<Row> {
  const statuses = new Map<number, number>();
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon(
      {
        url,
        connections,
        duration: seconds,
        maxOverallRequests: MAX_REQUESTS,
        timeout: 10,
        ...opts,
      } as autocannon.Options,
      (error, done) => (error ? reject(error) : resolve(done)),
    );
    instance.on('response', (_client, status) => statuses.set(status, (statuses.get(status) ?? 0) + 1));
  });
  return {
    scenario,
    requests: result.requests.total,
    rps: Math.round(result.requests.average),
    p50: result.latency.p50,
    p99: result.latency.p99,
    statuses: [...statuses.entries()]
      .sort(([a], [b]) => a - b)
      .map(([s, n]) => `${s}:${n}`)
      .join(' '),
    errors: result.errors + result.timeouts,
  };
}

async function healthy(base: string): Promise<boolean> {
  try {
    return (await fetch(`${base}/healthz`)).ok;
  } catch {
    return false;
  }
}

const json = { 'content-type': 'application/json' };
const rows: Row[] = [];

// Limits off for the throughput runs (one loopback client would trip them at once); on for the burst run.
const open = await buildApp({ dbPath: ':memory:', nodeEnv: 'test', devTools: true, passwordCost, rateLimit: false, logger: false });
await open.listen({ host: '127.0.0.1', port: 0 });
const openBase = `http://127.0.0.1:${(open.server.address() as { port: number }).port}`;
try {
  rows.push(
    await run(`${openBase}/ws/account/authentication-state`, 'authentication-state', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'tech@demo.test' }),
    }),
  );
  console.log('server up after authentication-state:', await healthy(openBase));
  // A new unknown email each time with a wrong password: no account reaches the bot check, every request hashes at the real cost.
  let n = 0;
  rows.push(
    await run(`${openBase}/ws/account/login`, `login (wrong password, argon2id m=${memoryKiB} KiB)`, {
      method: 'POST',
      headers: json,
      requests: [
        { setupRequest: (req: autocannon.Request) => ({ ...req, body: JSON.stringify({ email: `bench${n++}@load.test`, password: 'Wrong-Passw0rd!' }) }) },
      ],
    } as Partial<autocannon.Options>),
  );
  console.log('server up after login:', await healthy(openBase));
} finally {
  await open.close();
}

const limited = await buildApp({ dbPath: ':memory:', nodeEnv: 'test', devTools: true, passwordCost, logger: false });
await limited.listen({ host: '127.0.0.1', port: 0 });
const limitedBase = `http://127.0.0.1:${(limited.server.address() as { port: number }).port}`;
try {
  rows.push(
    await run(`${limitedBase}/ws/account/login`, 'login burst, limits on (300/min per address; bot check from the 3rd failure)', {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ email: 'tech@demo.test', password: 'Wrong-Passw0rd!' }),
    }),
  );
  console.log('server up after burst:', await healthy(limitedBase));
} finally {
  await limited.close();
}

console.log(`\n${seconds} s per scenario, ${connections} connections, loopback, cap ${MAX_REQUESTS} requests`);
console.table(rows);
