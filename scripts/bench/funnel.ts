import { randomBytes } from 'node:crypto';
import { cpus } from 'node:os';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/open';
import { rollUpFunnelEvents } from '../../server/db/funnelRollup';
import { analyzeFunnelEvents, insertSyntheticFunnelEvents, SYNTHETIC_SCREEN } from '../../server/db/funnelSynthetic';
import type { FunnelReport } from '../../catalogue/studio-contract';
import { funnelReport, funnelReportFromEvents } from '../../server/services/funnelReport';
import { cliOptions } from '../cli-args';
import { startPostgres } from '../postgres';

/**
 * `npm run bench:funnel`: the funnel at scale on PostgreSQL (issue 38, docs/performance.md "The
 * funnel"). A throwaway PostgreSQL (scripts/postgres.ts) is loaded with --events synthetic events
 * (default 10 million over 30 days, made by the database: server/db/funnelSynthetic.ts) and rolled up
 * into the hourly aggregates (server/db/funnelRollup.ts, as migration 061 does); the studio's report
 * of the busiest screen over its default period (30 days) runs --runs times from the aggregates (what
 * the studio uses) and --raw-runs times from the raw events (the design before the aggregates), with
 * the median and p95 of each and whether both give the same figures; then a real server instance on that database takes a burst of --rate events a second for --seconds
 * seconds, in batches of --batch events as the browser sends them (POST /ws/events, each batch from
 * its own visitor and address), and the accepted, dropped and 5xx counts and the latencies are printed.
 * A script, not a test: timings vary from machine to machine.
 *
 *   npx tsx scripts/bench/funnel.ts [--events 10000000] [--runs 10] [--raw-runs 3] [--rate 1000] [--seconds 10] [--batch 5]
 */
const options = cliOptions({ numbers: { events: 10_000_000, runs: 10, 'raw-runs': 3, rate: 1000, seconds: 10, batch: 5 } });
const DAY = 24 * 60 * 60 * 1000;
const DAYS = 30;
const SLICE = 500_000;

const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? 0;
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function load(data: ReturnType<typeof openDatabase>, now: number): Promise<void> {
  const started = performance.now();
  for (let from = 0; from < options.events; from += SLICE) {
    await insertSyntheticFunnelEvents(data, { from, to: Math.min(from + SLICE, options.events), now, days: DAYS });
    process.stdout.write(`\rloading: ${Math.min(from + SLICE, options.events).toLocaleString('en')} events`);
  }
  await analyzeFunnelEvents(data);
  console.log(` in ${((performance.now() - started) / 1000).toFixed(0)} s`);
  const rollUp = performance.now();
  await rollUpFunnelEvents(data, now - 2 * DAY);
  await analyzeFunnelEvents(data);
  console.log(`rolled up into the hourly aggregates in ${((performance.now() - rollUp) / 1000).toFixed(0)} s`);
}

type Report = typeof funnelReport;

async function reportTimes(report: Report, data: ReturnType<typeof openDatabase>, now: number, runs: number): Promise<{ times: number[]; last: FunnelReport }> {
  const times: number[] = [];
  let last: FunnelReport | undefined;
  for (let i = 0; i < runs; i += 1) {
    const started = performance.now();
    last = await report(data, { screen: SYNTHETIC_SCREEN, since: now - DAYS * DAY });
    times.push(performance.now() - started);
  }
  if (!last) throw new Error('no run');
  console.log(`  ${last.variants.map((v) => `${v.variant}: ${v.visitors} visitors, ${v.completed} completed`).join('; ')}`);
  return { times: times.sort((a, b) => a - b), last };
}

const summary = (times: readonly number[]) => `median ${ms(quantile(times, 0.5))}, p95 ${ms(quantile(times, 0.95))}, fastest ${ms(times[0] ?? 0)}`;

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
    return { kind, screen: SYNTHETIC_SCREEN, step, ...extra };
  });
  return JSON.stringify({ events });
}

interface BurstResult {
  batches: number;
  accepted: number;
  dropped: number;
  fiveHundreds: number;
  otherErrors: number;
  latencies: number[];
}

/** --rate events a second for --seconds, a tick every 100 ms; each batch from a new visitor and address. */
async function burst(base: string): Promise<BurstResult> {
  const result: BurstResult = { batches: 0, accepted: 0, dropped: 0, fiveHundreds: 0, otherErrors: 0, latencies: [] };
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
  const ticks = options.seconds * 10;
  const start = performance.now();
  for (let tick = 0; tick < ticks; tick += 1) {
    for (let i = 0; i < perTick; i += 1) pending.push(send(result.batches++));
    const next = start + (tick + 1) * 100;
    await new Promise((resolve) => setTimeout(resolve, Math.max(0, next - performance.now())));
  }
  await Promise.all(pending);
  result.latencies.sort((a, b) => a - b);
  return result;
}

async function main(): Promise<void> {
  const pg = await startPostgres();
  const data = openDatabase({ engine: 'postgres', url: pg.url });
  try {
    await data.migrate();
    const now = Date.now();
    await load(data, now);
    console.log('report from the hourly aggregates:');
    const after = await reportTimes(funnelReport, data, now, options.runs);
    console.log('report from the raw events:');
    const before = await reportTimes(funnelReportFromEvents, data, now, options['raw-runs']);
    const same = JSON.stringify(after.last) === JSON.stringify(before.last);
    const app = await buildApp({ data, devTools: true, seed: false, nodeEnv: 'production', logger: false, trustProxy: ['127.0.0.1'] });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const base = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
    const b = await burst(base);
    await app.close();
    console.log(`\nFunnel bench, PostgreSQL ${pg.version}, ${cpus().length} CPU(s)`);
    console.log(`${options.events.toLocaleString('en')} events over ${DAYS} days; the report of "${SYNTHETIC_SCREEN}" over ${DAYS} days:`);
    console.log(`  from the hourly aggregates (${options.runs} runs): ${summary(after.times)}`);
    console.log(`  from the raw events (${options['raw-runs']} runs): ${summary(before.times)}`);
    console.log(`  same figures both ways: ${same ? 'yes' : 'NO'}`);
    console.log(`Burst: ${options.rate} events/s for ${options.seconds} s in batches of ${options.batch} (${b.batches} batches) on one instance:`);
    console.log(`  accepted ${b.accepted}, dropped ${b.dropped}, 5xx ${b.fiveHundreds}, network errors ${b.otherErrors}`);
    console.log(`  batch latency median ${ms(quantile(b.latencies, 0.5))}, p95 ${ms(quantile(b.latencies, 0.95))}, p99 ${ms(quantile(b.latencies, 0.99))}`);
  } finally {
    await data.close();
    pg.stop();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
