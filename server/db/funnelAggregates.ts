/**
 * The funnel's hourly aggregates (migration 061), kept up by rolling up the raw events not rolled up
 * yet (funnel_events.rolled = 0): the intake stays one INSERT of the batch (routes/events.ts), and a
 * roll-up takes the pending events in chunks, one transaction each, under one lock for every
 * instance (services/funnelRollup.ts runs it every few seconds and before a report). A chunk is a
 * handful of upserts and marks its events rolled up. Purged with the raw events
 * (services/housekeeping.ts); funnel_seen after SEEN_MS.
 */
import type { Queryable, SqlValue } from './data.js';
import type { FunnelEventRow } from './funnel.js';
import { ANY, dayOf, hourOf, timeBucket } from './funnelHours.js';

/** Sums rows by key, in key order. */
function summed<T extends { key: SqlValue[] }>(items: readonly T[], add: (into: T, item: T) => T): T[] {
  const byKey = new Map<string, T>();
  for (const item of items) {
    const id = JSON.stringify(item.key);
    const before = byKey.get(id);
    byKey.set(id, before ? add(before, item) : item);
  }
  return [...byKey.entries()].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)).map(([, item]) => item);
}

/** Rows per statement: well under SQLite's 32,766 placeholders at 11 columns. */
const ROWS_PER_STATEMENT = 1000;

function chunks<T>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  for (let at = 0; at < items.length; at += ROWS_PER_STATEMENT) out.push(items.slice(at, at + ROWS_PER_STATEMENT));
  return out;
}

/** INSERT … VALUES (…), (…) ON CONFLICT (key) … for rows of `columns` values. */
async function upsert(q: Queryable, table: string, columns: readonly string[], keyLength: number, values: SqlValue[][], onConflict: string): Promise<void> {
  const one = `(${columns.map(() => '?').join(', ')})`;
  for (const part of chunks(values)) {
    await q.run(
      `INSERT INTO ${table} (${columns.join(', ')}) VALUES ${part.map(() => one).join(', ')} ON CONFLICT (${columns.slice(0, keyLength).join(', ')}) ${onConflict}`,
      part.flat(),
    );
  }
}

const EVENT_COLUMNS = ['screen', 'hour', 'version', 'variant', 'kind', 'step', 'field', 'keyword', 'code', 'events', 'last_at'];
const TIME_COLUMNS = ['screen', 'day', 'version', 'variant', 'step', 'bucket', 'n'];
const SEEN_COLUMNS = ['visitor', 'screen', 'version', 'variant', 'kind', 'step', 'created_at'];
const VISITOR_COLUMNS = ['screen', 'hour', 'version', 'variant', 'kind', 'step', 'visitors'];

async function addEvents(q: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  const items = rows.map((r) => ({
    key: [r.screen, hourOf(r.created_at), r.version, r.variant, r.kind, r.step ?? '', r.field ?? '', r.keyword ?? '', r.code ?? ''],
    events: 1,
    last: r.created_at,
  }));
  const sums = summed(items, (a, b) => ({ key: a.key, events: a.events + b.events, last: Math.max(a.last, b.last) }));
  await upsert(
    q,
    'funnel_hourly',
    EVENT_COLUMNS,
    9,
    sums.map((s) => [...s.key, s.events, s.last]),
    'DO UPDATE SET events = funnel_hourly.events + excluded.events, last_at = CASE WHEN excluded.last_at > funnel_hourly.last_at THEN excluded.last_at ELSE funnel_hourly.last_at END',
  );
}

async function addTimes(q: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  const items = rows.flatMap((r) =>
    r.kind === 'submit' && r.ms !== null ? [{ key: [r.screen, dayOf(r.created_at), r.version, r.variant, r.step ?? '', timeBucket(r.ms)], n: 1 }] : [],
  );
  const sums = summed(items, (a, b) => ({ key: a.key, n: a.n + b.n }));
  await upsert(
    q,
    'funnel_daily_times',
    TIME_COLUMNS,
    6,
    sums.map((s) => [...s.key, s.n]),
    'DO UPDATE SET n = funnel_daily_times.n + excluded.n',
  );
}

/** What each event counts its visitor for (as funnelRollup.ts's VISITOR_SHAPES): first times only. */
function seenKeys(r: FunnelEventRow): SqlValue[][] {
  const step = r.step ?? '';
  return [r.version, ANY].flatMap((version) => [
    [r.visitor, r.screen, version, r.variant, r.kind, step],
    ...(r.kind === 'complete' ? [[r.visitor, r.screen, version, r.variant, r.kind, ANY]] : []),
    [r.visitor, r.screen, version, r.variant, ANY, ANY],
  ]);
}

async function addVisitors(q: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  const items = rows.flatMap((r) => seenKeys(r).map((key) => ({ key, at: r.created_at })));
  const firsts = summed(items, (a, b) => ({ key: a.key, at: Math.min(a.at, b.at) }));
  const one = `(${SEEN_COLUMNS.map(() => '?').join(', ')})`;
  type Fresh = { screen: string; version: string; variant: string; kind: string; step: string; created_at: number };
  const fresh: Fresh[] = [];
  for (const part of chunks(firsts)) {
    // Only the rows inserted come back: the visitor's first time at each.
    const inserted = await q.all<Fresh>(
      `INSERT INTO funnel_seen (${SEEN_COLUMNS.join(', ')}) VALUES ${part.map(() => one).join(', ')}
       ON CONFLICT (${SEEN_COLUMNS.slice(0, 6).join(', ')}) DO NOTHING RETURNING screen, version, variant, kind, step, created_at`,
      part.flatMap((f) => [...f.key, f.at]),
    );
    fresh.push(...inserted);
  }
  const counts = summed(
    fresh.map((f) => ({ key: [f.screen, hourOf(Number(f.created_at)), f.version, f.variant, f.kind, f.step], n: 1 })),
    (a, b) => ({ key: a.key, n: a.n + b.n }),
  );
  await upsert(
    q,
    'funnel_hourly_visitors',
    VISITOR_COLUMNS,
    6,
    counts.map((c) => [...c.key, c.n]),
    'DO UPDATE SET visitors = funnel_hourly_visitors.visitors + excluded.visitors',
  );
}

/**
 * Rolls up at most `limit` pending events, the oldest first, inside the caller's transaction (which
 * holds the roll-up's lock); returns how many. An event whose INSERT commits meanwhile waits for the next.
 */
export async function rollUpPendingFunnelEvents(q: Queryable, limit: number): Promise<number> {
  const rows = await q.all<FunnelEventRow & { id: number }>(
    'SELECT id, created_at, visitor, screen, version, variant, kind, step, field, keyword, code, ms FROM funnel_events WHERE rolled = 0 ORDER BY id LIMIT ?',
    [limit],
  );
  if (rows.length === 0) return 0;
  const events = rows.map((r) => ({ ...r, created_at: Number(r.created_at), ms: r.ms === null ? null : Number(r.ms) }));
  await addEvents(q, events);
  await addTimes(q, events);
  await addVisitors(q, events);
  for (const part of chunks(rows.map((r) => Number(r.id))))
    await q.run(`UPDATE funnel_events SET rolled = 1 WHERE id IN (${part.map(() => '?').join(', ')})`, part);
  return rows.length;
}

/** Deletes the aggregates of the hours (the times: the days) wholly before `before`, and funnel_seen's rows before `seenBefore`; returns how many rows. */
export async function purgeFunnelAggregates(q: Queryable, before: number, seenBefore: number): Promise<number> {
  let n = 0;
  for (const table of ['funnel_hourly', 'funnel_hourly_visitors']) n += (await q.run(`DELETE FROM ${table} WHERE hour < ?`, [hourOf(before)])).changes;
  n += (await q.run('DELETE FROM funnel_daily_times WHERE day < ?', [dayOf(before)])).changes;
  return n + (await q.run('DELETE FROM funnel_seen WHERE created_at < ?', [seenBefore])).changes;
}
