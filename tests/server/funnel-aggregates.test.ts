/**
 * Issue 38 "Scale" on the run's engine: the studio's funnel reads hourly aggregates (migration 061,
 * server/db/funnelAggregates.ts) instead of every raw event. For a generated history (visitors over
 * several days, two versions, two variants, field errors, result codes, times), the report from the
 * aggregates equals the report from the raw events, whether the events were rolled up in chunks (the
 * running roll-up, services/funnelRollup.ts) or all at once in SQL (migration 061's way); the
 * retention purge takes the aggregates too; and a burst of concurrent batches is taken whole without
 * a 5xx.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FunnelEventRow, FunnelKind } from '../../server/db/funnel';
import { insertFunnelEvents } from '../../server/db/funnel';
import { purgeFunnelAggregates } from '../../server/db/funnelAggregates';
import { histogramMedian, timeBucket, bucketValue } from '../../server/db/funnelHours';
import { rollUpFunnelEvents } from '../../server/db/funnelRollup';
import { sqliteSchemaDb } from '../../server/db/migrations';
import { MIGRATIONS } from '../../server/db/migrations/index';
import { migrationContext } from '../../server/db/schema';
import { openSqlite } from '../../server/db/sqlite';
import { funnelReport, funnelReportFromEvents } from '../../server/services/funnelReport';
import { seededRandom } from '../../server/db/demoFunnel';
import { rollUpFunnel } from '../../server/services/funnelRollup';
import { purgeExpired } from '../../server/services/housekeeping';
import { makeApp } from './helpers';

const DAY = 24 * 60 * 60 * 1000;
const NOW = Date.UTC(2026, 10, 28, 15, 20);

const STEPS = ['email', 'password', 'code'];
const FIELDS = ['email', 'password', 'code'];
const KEYWORDS = ['format', 'required', 'minLength'];
const CODES = ['SUCCESS', 'INVALID_CREDENTIALS', 'MFA_REQUIRED', 'ACCOUNT_LOCKED'];

/**
 * One visitor's day on a screen, as the batches the browser sends: its hash is per day (the visitor's
 * name carries the day); some change version within the day (a publish), some leave.
 */
function visitorBatches(name: string, i: number, next: () => number): FunnelEventRow[][] {
  const pick = <T>(list: readonly T[]): T => list[Math.floor(next() * list.length)] as T;
  const day = Math.floor(next() * 6);
  // Within its UTC day (a visitor's hash is the day's), half an hour before its end at the latest.
  const dayStart = Math.floor(NOW / DAY) * DAY - day * DAY;
  let at = dayStart + Math.floor(next() * ((day === 0 ? NOW - dayStart : DAY) - 30 * 60 * 1000));
  const screen = next() < 0.8 ? 'login' : 'mfa';
  const variant = screen === 'login' ? (i % 2 === 0 ? 'A' : 'B') : '-';
  let version = next() < 0.5 ? 'v1' : 'v2';
  const batches: FunnelEventRow[][] = [];
  let batch: FunnelEventRow[] = [];
  const add = (kind: FunnelKind, step: string | null, extra: Partial<FunnelEventRow> = {}) => {
    at += Math.floor(next() * 5000);
    batch.push({
      created_at: at,
      visitor: `${name}-${i}-day-${day}`,
      screen,
      version,
      variant,
      kind,
      step,
      field: null,
      keyword: null,
      code: null,
      ms: null,
      ...extra,
    });
  };
  for (const step of STEPS.slice(0, 1 + Math.floor(next() * STEPS.length))) {
    add('step', step);
    while (next() < 0.4) add('fieldError', step, { field: pick(FIELDS), keyword: pick(KEYWORDS), ms: Math.floor(next() * 4000) });
    if (next() < 0.15) {
      add('leave', step, { ms: Math.floor(next() * 90_000) });
      break;
    }
    add('submit', step, { ms: Math.floor(next() * (next() < 0.2 ? 120_000 : 12_000)) });
    add('outcome', step, { code: pick(CODES), ms: Math.floor(next() * 15_000) });
    if (next() < 0.3) {
      batches.push(batch);
      batch = [];
      // A publish between two of the visitor's batches: its later events count under the new version.
      if (next() < 0.3) version = version === 'v1' ? 'v2' : 'v1';
    }
  }
  if (next() < 0.6) add('complete', batch[batch.length - 1]?.step ?? 'email');
  if (batch.length > 0) batches.push(batch);
  return batches;
}

function history(name: string, visitors: number, seed: number): FunnelEventRow[][] {
  const next = seededRandom(seed);
  return Array.from({ length: visitors }, (_, i) => visitorBatches(name, i, next)).flat();
}

let app: FastifyInstance;
beforeAll(async () => {
  app = await makeApp({ seed: false, now: () => NOW });
});
afterAll(async () => {
  await app.close();
});

const SCOPES = [
  { screen: 'login', since: NOW - 30 * DAY },
  { screen: 'login', version: 'v1', since: NOW - 30 * DAY },
  { screen: 'login', version: 'v2', since: NOW - 2 * DAY },
  { screen: 'mfa', since: NOW - 3 * DAY },
  { screen: 'register', since: NOW - 30 * DAY },
];

async function expectSameReports(label: string): Promise<void> {
  for (const scope of SCOPES) {
    const fromEvents = await funnelReportFromEvents(app.fd.data, scope);
    expect(await funnelReport(app.fd.data, scope), `${label}: ${JSON.stringify(scope)}`).toEqual(fromEvents);
  }
}

describe('the report from the hourly aggregates', () => {
  it('equals the report from the raw events, rolled up in chunks, in SQL, and in chunks after SQL', async () => {
    const first = history('visitor', 250, 38);
    // Rolled up while events come, in small chunks: a visitor's events fall into several chunks and
    // roll-ups, and its first times still count once. (The app's own roll-up may take some too.)
    for (const [i, batch] of first.entries()) {
      await insertFunnelEvents(app.fd.data, batch);
      if (i % 50 === 49) await rollUpFunnel(app.fd.data, 97);
    }
    await rollUpFunnel(app.fd.data, 97);
    expect(await rollUpFunnel(app.fd.data, 97)).toBe(0);
    const report = await funnelReport(app.fd.data, SCOPES[0] ?? { screen: 'login', since: 0 });
    // The history is worth comparing: both variants, every step, errors, codes, times, two versions.
    expect(report.variants.map((v) => v.variant)).toEqual(['A', 'B']);
    expect(report.versions).toHaveLength(2);
    for (const variant of report.variants) {
      expect(variant.visitors).toBeGreaterThan(60);
      expect(variant.completed).toBeGreaterThan(20);
      expect(variant.steps.map((s) => s.step).sort()).toEqual([...STEPS].sort());
      expect(variant.steps.every((s) => s.medianMs !== null && s.submitted > 0 && s.left > 0)).toBe(true);
      expect(variant.fieldErrors.length).toBeGreaterThan(5);
      expect(variant.resultCodes.map((c) => c.code).sort()).toEqual([...CODES].sort());
    }
    expect(report.comparison).not.toBeNull();
    await expectSameReports('rolled up in chunks');

    // Migration 061's way: the aggregates computed from every raw event at once, in SQL.
    await purgeFunnelAggregates(app.fd.data, NOW + DAY, NOW + DAY);
    expect((await funnelReport(app.fd.data, SCOPES[0] ?? { screen: 'login', since: 0 })).variants).toEqual([]);
    await rollUpFunnelEvents(app.fd.data, NOW - 2 * DAY);
    await expectSameReports('rolled up in SQL');
    expect(await rollUpFunnel(app.fd.data)).toBe(0);

    // The intake goes on from the rolled-up state: new visitors, and today's visitors again, who count once.
    const today = first.filter((batch) => (batch[0]?.created_at ?? 0) >= Math.floor(NOW / DAY) * DAY).slice(0, 20);
    expect(today.length).toBe(20);
    const again = today.map((batch) => batch.map((row) => ({ ...row, created_at: row.created_at + 60_000 })));
    for (const batch of [...history('later', 60, 39), ...again]) await insertFunnelEvents(app.fd.data, batch);
    await expectSameReports('rolled up in SQL, then in chunks');
  });

  it('reads the median time from buckets: the median of the times read as their buckets’ middles', () => {
    const times = [120, 180, 950, 4020, 4070, 13_500, 700_000];
    const histogram = times.map((ms) => ({ bucket: timeBucket(ms), n: 1 }));
    expect(histogramMedian(histogram)).toBe(4050);
    expect(histogramMedian(histogram.slice(0, 4))).toBe(Math.round((bucketValue(timeBucket(180)) + bucketValue(timeBucket(950))) / 2));
    expect(histogramMedian([])).toBeNull();
    expect(timeBucket(700_000)).toBe(bucketValue(timeBucket(700_000)));
  });

  it('purges the aggregates with the events past the retention; newer ones stay and still agree', async () => {
    const before = await funnelReport(app.fd.data, { screen: 'login', since: NOW - 30 * DAY });
    await purgeExpired(app.fd.data, NOW, 3);
    const after = await funnelReport(app.fd.data, { screen: 'login', since: NOW - 30 * DAY });
    expect(after.variants[0]?.visitors).toBeLessThan(before.variants[0]?.visitors ?? 0);
    expect(after.variants[0]?.visitors).toBeGreaterThan(0);
    // Events of the day the retention ends in are cut at the hour: compare from the next whole day.
    for (const scope of SCOPES) {
      const since = Math.max(scope.since, NOW - 2 * DAY);
      expect(await funnelReport(app.fd.data, { ...scope, since })).toEqual(await funnelReportFromEvents(app.fd.data, { ...scope, since }));
    }
    // Control: nothing older than the retention is left in the aggregates.
    const old = await app.fd.data.get<{ n: number }>('SELECT count(*) AS n FROM funnel_hourly WHERE hour < ?', [NOW - 3 * DAY - 60 * 60 * 1000]);
    expect(Number(old?.n)).toBe(0);
    // Which visitor did what is kept two days only (its hash changes each day).
    const seen = await app.fd.data.get<{ n: number }>('SELECT count(*) AS n FROM funnel_seen WHERE created_at < ?', [NOW - 2 * DAY]);
    expect(Number(seen?.n)).toBe(0);
  });
});

describe('migration 061 on a database with events', () => {
  it('rolls up the events recorded before it: the report from the aggregates equals the one from the events', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'funnel-061-'));
    const file = join(dir, 'db.sqlite');
    try {
      // A database of the release before: migrations up to 060, recorded as applied.
      const connection = new BetterSqlite3(file);
      const schema = sqliteSchemaDb(connection);
      const before = MIGRATIONS.filter((m) => m.name < '061');
      for (const migration of before) await migration.up(migrationContext(schema, 'sqlite'));
      await sql`CREATE TABLE schema_migrations (name text PRIMARY KEY, applied_at integer NOT NULL)`.execute(schema);
      for (const migration of before) await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${migration.name}, ${NOW})`.execute(schema);
      connection.close();
      const data = openSqlite(file);
      try {
        for (const batch of history('old', 80, 40)) await insertFunnelEvents(data, batch);
        // 061 and whatever came after it (062's rollouts), in order.
        expect(await data.migrate()).toEqual(MIGRATIONS.filter((m) => m.name >= '061').map((m) => m.name));
        expect(await rollUpFunnel(data)).toBe(0);
        const scope = { screen: 'login', since: NOW - 30 * DAY };
        const report = await funnelReport(data, scope);
        expect(report.variants.map((v) => v.visitors).every((n) => n > 20)).toBe(true);
        expect(report).toEqual(await funnelReportFromEvents(data, scope));
      } finally {
        await data.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a burst of batches', () => {
  it('takes 300 concurrent batches (1,500 events) whole: 202 each, no 5xx, every visitor counted', async () => {
    const body = {
      events: [
        { kind: 'step', screen: 'register', step: 'form' },
        { kind: 'fieldError', screen: 'register', step: 'form', field: 'email', keyword: 'format' },
        { kind: 'submit', screen: 'register', step: 'form', ms: 2400 },
        { kind: 'outcome', screen: 'register', step: 'form', code: 'SUCCESS', ms: 2600 },
        { kind: 'complete', screen: 'register', step: 'form' },
      ],
    };
    const before = await funnelReport(app.fd.data, { screen: 'register', since: NOW - DAY });
    expect(before.variants).toEqual([]);
    const answers = await Promise.all(
      Array.from({ length: 300 }, (_, i) =>
        app.inject({
          method: 'POST',
          url: '/ws/events',
          payload: body,
          cookies: { fd_vid: `burst-browser-${String(i).padStart(4, '0')}-abcdefghij` },
          remoteAddress: `198.51.100.${i % 250}`,
        }),
      ),
    );
    expect(answers.map((a) => a.statusCode).filter((s) => s !== 202)).toEqual([]);
    expect(answers.reduce((sum, a) => sum + (a.json() as { accepted: number }).accepted, 0)).toBe(1500);
    const report = await funnelReport(app.fd.data, { screen: 'register', since: NOW - DAY });
    expect(report.variants).toMatchObject([{ variant: '-', visitors: 300, completed: 300, fieldErrors: [{ field: 'email', keyword: 'format', count: 300 }] }]);
    expect(report.variants[0]?.steps).toEqual([{ step: 'form', shown: 300, submitted: 300, left: 0, medianMs: 2450 }]);
    expect(report).toEqual(await funnelReportFromEvents(app.fd.data, { screen: 'register', since: NOW - DAY }));
  });
});
