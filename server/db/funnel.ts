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
