import { spawn } from 'node:child_process';
import { cpus } from 'node:os';
import { buildApp } from '../../server/app';
import { openDatabase } from '../../server/db/open';
import { rollUpFunnelEvents } from '../../server/db/funnelRollup';
import { analyzeFunnelEvents, insertSyntheticFunnelEvents, SYNTHETIC_SCREEN } from '../../server/db/funnelSynthetic';
import type { FunnelReport } from '../../catalogue/studio-contract';
import { funnelReport, funnelReportFromEvents } from '../../server/services/funnelReport';
import { cliOptions } from '../cli-args';
import type { BurstResult } from './funnel-burst';
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

/** The burst from a client process of its own (scripts/bench/funnel-burst.ts): the server's event loop serves only. */
async function burst(base: string): Promise<BurstResult> {
  const args = [
    'tsx',
    'scripts/bench/funnel-burst.ts',
    '--url',
    base,
    '--rate',
    String(options.rate),
    '--seconds',
    String(options.seconds),
    '--batch',
    String(options.batch),
  ];
  const child = spawn('npx', args, { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
  if (code !== 0) throw new Error(`the burst's client ended with ${code}`);
  return JSON.parse(out) as BurstResult;
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
    // The burst's events not rolled up yet (the app's own roll-up every 5 s may have taken some): the next report takes them first.
    const afterBurst = await reportTimes(funnelReport, data, now, 1);
    console.log(`\nFunnel bench, PostgreSQL ${pg.version}, ${cpus().length} CPU(s)`);
    console.log(`${options.events.toLocaleString('en')} events over ${DAYS} days; the report of "${SYNTHETIC_SCREEN}" over ${DAYS} days:`);
    console.log(`  from the hourly aggregates (${options.runs} runs): ${summary(after.times)}`);
    console.log(`  from the raw events (${options['raw-runs']} runs): ${summary(before.times)}`);
    console.log(`  same figures both ways: ${same ? 'yes' : 'NO'}`);
    console.log(`Burst: ${options.rate} events/s for ${options.seconds} s in batches of ${options.batch} (${b.batches} batches) on one instance:`);
    console.log(`  accepted ${b.accepted}, dropped ${b.dropped}, 5xx ${b.fiveHundreds}, network errors ${b.otherErrors}`);
    console.log(`  the first report after it (rolling up what the burst left pending first): ${ms(afterBurst.times[0] ?? 0)}`);
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
