/**
 * The figures of a screen's funnel over a period (services/funnelReport.ts makes the report of them),
 * read from the hourly aggregates (migration 061: what the studio uses, under a second at 10 million
 * events) or from the raw events (the reference the tests compare them with, and what the bench
 * measured before: docs/performance.md "The funnel"). Both give the same figures for a period of whole
 * UTC days; times come as histograms (funnelHours.ts buckets).
 */
import type { Queryable, SqlValue } from './data.js';
import { ANY, timeBucketSql } from './funnelHours.js';

export interface FunnelScope {
  screen: string;
  /** One version, or every version when undefined. */
  version?: string | undefined;
  /** The period's start: the start of a UTC day (funnelReport.ts rounds it down). */
  since: number;
}

export interface FunnelFigures {
  /** Distinct visitors per variant, kind and step; ANY as the kind or step: any ('' as the step: none). */
  visitors: Array<{ variant: string; kind: string; step: string; visitors: number }>;
  /** Submit times per variant and step, as a histogram. */
  times: Array<{ variant: string; step: string; bucket: number; n: number }>;
  /** The most frequent field errors and result codes (all variants, the most first), `limit` of each. */
  fieldErrors: Array<{ variant: string; field: string; keyword: string; n: number }>;
  resultCodes: Array<{ variant: string; code: string; n: number }>;
  /** The versions with events in the period, the latest first. */
  versions: string[];
}

/** PostgreSQL's count() and sum() come as bigint and numeric: the adapter reads them as numbers; Number() for the types. */
const numbered = <T extends Record<string, unknown>>(rows: T[], key: keyof T): T[] => rows.map((r) => ({ ...r, [key]: Number(r[key]) }));

/** The rows of the scope; `time`: the table's time column (created_at, hour or day). */
function scoped(time: 'created_at' | 'hour' | 'day', { screen, version, since }: FunnelScope): { where: string; params: SqlValue[] } {
  return version === undefined
    ? { where: `screen = ? AND ${time} >= ?`, params: [screen, since] }
    : { where: `screen = ? AND version = ? AND ${time} >= ?`, params: [screen, version, since] };
}

const TOP_ORDER = 'ORDER BY n DESC, field, keyword, code, variant LIMIT ?';

export async function figuresFromAggregates(q: Queryable, scope: FunnelScope, limit: number): Promise<FunnelFigures> {
  const { where, params } = scoped('hour', scope);
  const daily = scoped('day', scope);
  const top = `SELECT variant, field, keyword, code, sum(events) AS n FROM funnel_hourly WHERE ${where} AND kind = ? GROUP BY variant, field, keyword, code ${TOP_ORDER}`;
  type Top = { variant: string; field: string; keyword: string; code: string; n: number };
  const [visitors, times, fieldErrors, resultCodes, versions] = await Promise.all([
    // A visitor of two versions counts once for "any version" (ANY rows), as count(DISTINCT) would.
    q.all<FunnelFigures['visitors'][number]>(
      'SELECT variant, kind, step, sum(visitors) AS visitors FROM funnel_hourly_visitors WHERE screen = ? AND version = ? AND hour >= ? GROUP BY variant, kind, step',
      [scope.screen, scope.version ?? ANY, scope.since],
    ),
    q.all<FunnelFigures['times'][number]>(
      `SELECT variant, step, bucket, sum(n) AS n FROM funnel_daily_times WHERE ${daily.where} GROUP BY variant, step, bucket`,
      daily.params,
    ),
    q.all<Top>(top, [...params, 'fieldError', limit]),
    q.all<Top>(top, [...params, 'outcome', limit]),
    q.all<{ version: string }>(
      'SELECT version, max(last_at) AS latest FROM funnel_hourly WHERE screen = ? AND hour >= ? GROUP BY version ORDER BY latest DESC, version',
      [scope.screen, scope.since],
    ),
  ]);
  return figuresOf(visitors, times, fieldErrors, resultCodes, versions);
}

/** The same figures from every raw event of the period: count(DISTINCT visitor) and GROUP BY over funnel_events. */
export async function figuresFromEvents(q: Queryable, scope: FunnelScope, limit: number): Promise<FunnelFigures> {
  const { where, params } = scoped('created_at', scope);
  const step = "COALESCE(step, '')";
  const bucket = timeBucketSql('ms');
  const top = `SELECT variant, COALESCE(field, '') AS field, COALESCE(keyword, '') AS keyword, COALESCE(code, '') AS code, count(*) AS n FROM funnel_events
    WHERE ${where} AND kind = ? GROUP BY variant, COALESCE(field, ''), COALESCE(keyword, ''), COALESCE(code, '') ${TOP_ORDER}`;
  type Top = { variant: string; field: string; keyword: string; code: string; n: number };
  const [visitors, times, fieldErrors, resultCodes, versions] = await Promise.all([
    q.all<FunnelFigures['visitors'][number]>(
      `SELECT variant, kind, ${step} AS step, count(DISTINCT visitor) AS visitors FROM funnel_events WHERE ${where} GROUP BY variant, kind, ${step}
       UNION ALL SELECT variant, kind, '${ANY}', count(DISTINCT visitor) FROM funnel_events WHERE ${where} AND kind = 'complete' GROUP BY variant, kind
       UNION ALL SELECT variant, '${ANY}', '${ANY}', count(DISTINCT visitor) FROM funnel_events WHERE ${where} GROUP BY variant`,
      [...params, ...params, ...params],
    ),
    q.all<FunnelFigures['times'][number]>(
      `SELECT variant, ${step} AS step, ${bucket} AS bucket, count(*) AS n FROM funnel_events WHERE ${where} AND kind = 'submit' AND ms IS NOT NULL
       GROUP BY variant, ${step}, ${bucket}`,
      params,
    ),
    q.all<Top>(top, [...params, 'fieldError', limit]),
    q.all<Top>(top, [...params, 'outcome', limit]),
    q.all<{ version: string }>(
      'SELECT version, max(created_at) AS latest FROM funnel_events WHERE screen = ? AND created_at >= ? GROUP BY version ORDER BY latest DESC, version',
      [scope.screen, scope.since],
    ),
  ]);
  return figuresOf(visitors, times, fieldErrors, resultCodes, versions);
}

/** The figures from either source's rows (the drivers may answer sums and counts as text or bigint). */
function figuresOf(
  visitors: FunnelFigures['visitors'],
  times: FunnelFigures['times'],
  fieldErrors: FunnelFigures['fieldErrors'],
  resultCodes: FunnelFigures['resultCodes'],
  versions: { version: string }[],
): FunnelFigures {
  return {
    visitors: numbered(visitors, 'visitors'),
    times: numbered(numbered(times, 'n'), 'bucket'),
    fieldErrors: numbered(fieldErrors, 'n'),
    resultCodes: numbered(resultCodes, 'n'),
    versions: versions.map((v) => v.version),
  };
}
