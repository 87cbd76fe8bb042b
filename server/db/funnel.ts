/**
 * The funnel's events (table funnel_events, migration 060): written in batches by POST /ws/events
 * (routes/events.ts), read per screen for the studio's funnel (services/funnel.ts), purged after the
 * retention (services/housekeeping.ts). A row holds names and codes only: never a value, an email or
 * an address (docs/editing-screens.md "What is recorded").
 */
import type { Queryable } from './data.js';

export const FUNNEL_KINDS = ['step', 'fieldError', 'submit', 'outcome', 'complete', 'leave'] as const;
export type FunnelKind = (typeof FUNNEL_KINDS)[number];

export interface FunnelEventRow {
  created_at: number;
  visitor: string;
  screen: string;
  version: string;
  variant: string;
  kind: FunnelKind;
  step: string | null;
  field: string | null;
  keyword: string | null;
  code: string | null;
  ms: number | null;
}

const COLUMNS = ['created_at', 'visitor', 'screen', 'version', 'variant', 'kind', 'step', 'field', 'keyword', 'code', 'ms'] as const;

/** Inserts the rows in one statement (a batch is small: routes/events.ts caps it). */
export async function insertFunnelEvents(q: Queryable, rows: readonly FunnelEventRow[]): Promise<void> {
  if (rows.length === 0) return;
  const one = `(${COLUMNS.map(() => '?').join(', ')})`;
  await q.run(
    `INSERT INTO funnel_events (${COLUMNS.join(', ')}) VALUES ${rows.map(() => one).join(', ')}`,
    rows.flatMap((row) => COLUMNS.map((column) => row[column])),
  );
}

/** Per variant, kind and step: events and distinct visitors of one screen (and version) since `since`. */
export interface FunnelCountRow {
  variant: string;
  kind: FunnelKind;
  step: string | null;
  events: number;
  visitors: number;
}

export interface FunnelScope {
  screen: string;
  /** One version, or every version when undefined. */
  version?: string | undefined;
  since: number;
}

function where({ screen, version, since }: FunnelScope): { clause: string; params: (string | number)[] } {
  return version === undefined
    ? { clause: 'screen = ? AND created_at >= ?', params: [screen, since] }
    : { clause: 'screen = ? AND version = ? AND created_at >= ?', params: [screen, version, since] };
}

export async function funnelCounts(q: Queryable, scope: FunnelScope): Promise<FunnelCountRow[]> {
  const { clause, params } = where(scope);
  const rows = await q.all<FunnelCountRow>(
    `SELECT variant, kind, step, count(*) AS events, count(DISTINCT visitor) AS visitors FROM funnel_events WHERE ${clause} GROUP BY variant, kind, step`,
    params,
  );
  // PostgreSQL's count() is a bigint, which pg gives as text.
  return rows.map((r) => ({ ...r, events: Number(r.events), visitors: Number(r.visitors) }));
}

/** Distinct visitors per variant (with an event of `kind` only, when given), the most visitors first. */
export async function funnelVisitors(q: Queryable, scope: FunnelScope, kind?: FunnelKind): Promise<Array<{ variant: string; visitors: number }>> {
  const { clause, params } = where(scope);
  const rows = await q.all<{ variant: string; visitors: number }>(
    `SELECT variant, count(DISTINCT visitor) AS visitors FROM funnel_events WHERE ${clause}${kind ? ' AND kind = ?' : ''} GROUP BY variant ORDER BY variant`,
    kind ? [...params, kind] : params,
  );
  return rows.map((r) => ({ variant: r.variant, visitors: Number(r.visitors) }));
}

/** The most frequent field errors (field and keyword) or result codes, per variant. */
export async function topFunnelValues(
  q: Queryable,
  scope: FunnelScope,
  kind: 'fieldError' | 'outcome',
  limit: number,
): Promise<Array<{ variant: string; field: string | null; keyword: string | null; code: string | null; n: number }>> {
  const { clause, params } = where(scope);
  const rows = await q.all<{ variant: string; field: string | null; keyword: string | null; code: string | null; n: number }>(
    `SELECT variant, field, keyword, code, count(*) AS n FROM funnel_events WHERE ${clause} AND kind = ? GROUP BY variant, field, keyword, code ORDER BY n DESC, field, keyword, code LIMIT ?`,
    [...params, kind, limit],
  );
  return rows.map((r) => ({ ...r, n: Number(r.n) }));
}

/** The times (ms since the step was shown) of one kind of event, per variant and step, at most `limit` of the latest. */
export async function funnelTimes(
  q: Queryable,
  scope: FunnelScope,
  kind: FunnelKind,
  limit: number,
): Promise<Array<{ variant: string; step: string | null; ms: number }>> {
  const { clause, params } = where(scope);
  const rows = await q.all<{ variant: string; step: string | null; ms: number }>(
    `SELECT variant, step, ms FROM funnel_events WHERE ${clause} AND kind = ? AND ms IS NOT NULL ORDER BY created_at DESC LIMIT ?`,
    [...params, kind, limit],
  );
  return rows.map((r) => ({ ...r, ms: Number(r.ms) }));
}

/** The versions of a screen that have events since `since`, newest first. */
export async function funnelVersions(q: Queryable, screen: string, since: number): Promise<string[]> {
  const rows = await q.all<{ version: string }>(
    'SELECT version, max(created_at) AS latest FROM funnel_events WHERE screen = ? AND created_at >= ? GROUP BY version ORDER BY latest DESC',
    [screen, since],
  );
  return rows.map((r) => r.version);
}

export async function countFunnelEvents(q: Queryable): Promise<number> {
  return Number((await q.get<{ n: number }>('SELECT count(*) AS n FROM funnel_events'))?.n ?? 0);
}

/** Deletes the events recorded before `before` (the retention); returns how many. */
export async function purgeFunnelEvents(q: Queryable, before: number): Promise<number> {
  return (await q.run('DELETE FROM funnel_events WHERE created_at < ?', [before])).changes;
}

/** The last studio version that changed the screen's file (0: the catalogue as built, no studio version yet). */
export async function screenVersion(q: Queryable, screen: string): Promise<number> {
  const row = await q.get<{ n: number | null }>('SELECT max(version) AS n FROM studio_version_files WHERE path = ?', [`screens/${screen}.json`]);
  return Number(row?.n ?? 0);
}
