/**
 * The funnel's hourly aggregates computed from every raw event in funnel_events at once, in SQL
 * (migration 061 runs it over the events recorded before it; the bench and the tests over synthetic
 * ones), marking them rolled up. Afterwards the roll-up of the pending events keeps them up to date
 * (funnelAggregates.ts); both count alike: the tests compare the report's figures from either
 * (tests/server/funnel-aggregates.test.ts). Plain SQL of both engines.
 */
import type { Queryable } from './data.js';
import { ANY, DAY_MS, HOUR_MS, timeBucketSql } from './funnelHours.js';

const hour = (column: string) => `(${column} / ${HOUR_MS}) * ${HOUR_MS}`;
const day = (column: string) => `(${column} / ${DAY_MS}) * ${DAY_MS}`;
const any = `'${ANY}'`;

/**
 * What a visitor is counted for, once each: a kind at a step, completing at any step, any event; each
 * for its version and for any version (a report of all versions counts a visitor of two versions once).
 */
const VISITOR_SHAPES = ['version', any].flatMap((version) => [
  { version, kind: 'kind', step: "COALESCE(step, '')", where: '' },
  { version, kind: 'kind', step: any, where: " AND kind = 'complete'" },
  { version, kind: any, step: any, where: '' },
]);

/** Per shape: each visitor's first time (events since `since`). */
function firstSeen(since: number): string {
  return VISITOR_SHAPES.map((s) => {
    // A constant is no grouping term (PostgreSQL refuses one).
    const groups = ['visitor', 'screen', s.version, 'variant', s.kind, s.step].filter((term) => term !== any);
    return (
      `SELECT visitor, screen, ${s.version} AS version, variant, ${s.kind} AS kind, ${s.step} AS step, min(created_at) AS first_at FROM funnel_events` +
      ` WHERE created_at >= ${since}${s.where} GROUP BY ${groups.join(', ')}`
    );
  }).join(' UNION ALL ');
}

/** The statements that fill the aggregates from funnel_events (empty aggregates; `seenSince`: the start of funnel_seen's window). */
export function funnelRollupStatements(seenSince: number): string[] {
  const since = Math.floor(seenSince);
  return [
    `INSERT INTO funnel_hourly (screen, hour, version, variant, kind, step, field, keyword, code, events, last_at)
     SELECT screen, hour, version, variant, kind, step, field, keyword, code, count(*), max(created_at) FROM (
       SELECT screen, ${hour('created_at')} AS hour, version, variant, kind, COALESCE(step, '') AS step, COALESCE(field, '') AS field,
         COALESCE(keyword, '') AS keyword, COALESCE(code, '') AS code, created_at FROM funnel_events
     ) e GROUP BY screen, hour, version, variant, kind, step, field, keyword, code`,
    `INSERT INTO funnel_hourly_visitors (screen, hour, version, variant, kind, step, visitors)
     SELECT screen, hour, version, variant, kind, step, count(*) FROM (
       SELECT screen, ${hour('first_at')} AS hour, version, variant, kind, step FROM (${firstSeen(0)}) f
     ) h GROUP BY screen, hour, version, variant, kind, step`,
    `INSERT INTO funnel_daily_times (screen, day, version, variant, step, bucket, n)
     SELECT screen, day, version, variant, step, bucket, count(*) FROM (
       SELECT screen, ${day('created_at')} AS day, version, variant, COALESCE(step, '') AS step, ${timeBucketSql('ms')} AS bucket
       FROM funnel_events WHERE kind = 'submit' AND ms IS NOT NULL
     ) t GROUP BY screen, day, version, variant, step, bucket`,
    `INSERT INTO funnel_seen (visitor, screen, version, variant, kind, step, created_at)
     SELECT visitor, screen, version, variant, kind, step, first_at FROM (${firstSeen(since)}) f`,
    'UPDATE funnel_events SET rolled = 1 WHERE rolled = 0',
  ];
}

/** Fills the (empty) aggregates from the raw events, all of them, and marks them rolled up. */
export async function rollUpFunnelEvents(q: Queryable, seenSince: number): Promise<void> {
  for (const statement of funnelRollupStatements(seenSince)) await q.run(statement);
}
