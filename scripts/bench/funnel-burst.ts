import { randomBytes } from 'node:crypto';
import { cliOptions } from '../cli-args';

/**
 * The burst's client of `npm run bench:funnel` (scripts/bench/funnel.ts starts it in a process of
 * its own, so that the server's event loop only serves): --rate events a second for --seconds
 * seconds, in batches of --batch events as the browser sends them, each batch from a new visitor
 * (cookie fd_vid) and address (X-Forwarded-For, the server trusting the loopback proxy) to --url.
 * Prints the counts, the seconds it took and the sorted latencies as JSON. With --concurrency N
 * instead: N senders one batch after the other for --seconds seconds (the instance's capacity).
 */
const options = cliOptions({ numbers: { rate: 1000, seconds: 10, batch: 5, concurrency: 0 }, strings: { url: '' } });
const SCREEN = 'login';

const STEPS = ['credentials', 'email', 'password'];

function batchBody(size: number): string {
  const step = STEPS[Math.floor(Math.random() * STEPS.length)] ?? 'credentials';
  const kinds = ['step', 'fieldError', 'submit', 'outcome', 'complete'] as const;
  const events = Array.from({ length: size }, (_, i) => {
    const kind = kinds[i % kinds.length] ?? 'step';
    const extra =
      kind === 'fieldError'
        ? { field: 'email', keyword: 'format' }
        : kind === 'outcome'
          ? { code: 'SUCCESS', ms: 2500 }
          : kind === 'submit'
            ? { ms: 2000 }
            : {};
    return { kind, screen: SCREEN, step, ...extra };
  });
  return JSON.stringify({ events });
}

export interface BurstResult {
  batches: number;
  accepted: number;
  dropped: number;
  fiveHundreds: number;
  otherErrors: number;
  latencies: number[];
  seconds: number;
}

/** --rate events a second for --seconds, a tick every 100 ms; each batch from a new visitor and address. */
async function burst(base: string): Promise<BurstResult> {
  const result: BurstResult = { batches: 0, accepted: 0, dropped: 0, fiveHundreds: 0, otherErrors: 0, latencies: [], seconds: 0 };
  const perTick = Math.max(1, Math.round(options.rate / 10 / options.batch));
  const pending: Promise<void>[] = [];
  const send = async (n: number) => {
    const started = performance.now();
    try {
      const res = await fetch(`${base}/ws/events`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          cookie: `fd_vid=${randomBytes(18).toString('base64url')}`,
          'x-forwarded-for': `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`,
        },
        body: batchBody(options.batch),
      });
      result.latencies.push(performance.now() - started);
      if (res.status >= 500) result.fiveHundreds += 1;
      const accepted = res.status === 202 ? ((await res.json()) as { accepted: number }).accepted : 0;
      result.accepted += accepted;
      result.dropped += options.batch - accepted;
    } catch {
      result.otherErrors += 1;
      result.dropped += options.batch;
    }
  };
  const start = performance.now();
  if (options.concurrency > 0) {
    const end = start + options.seconds * 1000;
    const sender = async () => {
      while (performance.now() < end) await send(result.batches++);
    };
    await Promise.all(Array.from({ length: options.concurrency }, sender));
  }
  const ticks = options.concurrency > 0 ? 0 : options.seconds * 10;
  for (let tick = 0; tick < ticks; tick += 1) {
    for (let i = 0; i < perTick; i += 1) pending.push(send(result.batches++));
    const next = start + (tick + 1) * 100;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await Promise.all(pending);
  result.seconds = (performance.now() - start) / 1000;
  result.latencies.sort((a, b) => a - b);
  return result;
}

burst(options.url)
  .then((result) => process.stdout.write(JSON.stringify(result)))
  .catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
