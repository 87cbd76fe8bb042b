/**
 * The screen studio's drafts and their review (tables studio_changes and studio_change_events,
 * migrations 030 and 042): a change's files after and before (JSON), its state and revision, and each
 * step of its life. Every step is a conditional update (two approvers at once: one wins); the rules are
 * server/routes/studio/changes.ts's.
 */
import type { ChangeEvent, ChangeState } from '../../catalogue/studio-contract.js';
import type { Queryable } from './data.js';

export interface ChangeRow {
  id: number;
  screen_id: string;
  note: string;
  author: string;
  state: ChangeState;
  /** JSON: path to text. */
  files: string;
  /** JSON: path to text (null: the file did not exist). */
  base: string;
  revision: number;
  approved_by: string | null;
  version: number | null;
  created_at: number;
  updated_at: number;
}

export interface EventRow {
  at: number;
  who: string;
  action: ChangeEvent['action'];
  comment: string | null;
  revision: number | null;
}

const COLUMNS = 'id, screen_id, note, author, state, files, base, revision, approved_by, version, created_at, updated_at';

export async function insertEvent(q: Queryable, changeId: number, event: EventRow): Promise<void> {
  await q.run('INSERT INTO studio_change_events (change_id, at, who, action, comment, revision) VALUES (?, ?, ?, ?, ?, ?)', [
    changeId,
    event.at,
    event.who,
    event.action,
    event.comment,
    event.revision,
  ]);
}

/** A new draft at revision 1; returns its id. */
export async function insertChange(
  t: Queryable,
  change: { screenId: string; note: string; author: string; filesJson: string; baseJson: string },
  now: number,
): Promise<number> {
  const row = await t.get<{ id: number }>(
    `INSERT INTO studio_changes (screen_id, note, author, state, files, base, revision, created_at, updated_at)
     VALUES (?, ?, ?, 'draft', ?, ?, 1, ?, ?) RETURNING id`,
    [change.screenId, change.note, change.author, change.filesJson, change.baseJson, now, now],
  );
  if (!row) throw new Error('no id for the new change');
  return row.id;
}

export async function changeRow(q: Queryable, id: number): Promise<ChangeRow | undefined> {
  return q.get<ChangeRow>(`SELECT ${COLUMNS} FROM studio_changes WHERE id = ?`, [id]);
}

export async function eventRows(q: Queryable, changeId: number): Promise<EventRow[]> {
  return q.all<EventRow>('SELECT at, who, action, comment, revision FROM studio_change_events WHERE change_id = ? ORDER BY id', [changeId]);
}

/** Every change not discarded: open ones first, then published, each newest first. */
export async function liveChangeRows(q: Queryable): Promise<ChangeRow[]> {
  return q.all<ChangeRow>(
    `SELECT ${COLUMNS} FROM studio_changes WHERE state <> 'discarded'
     ORDER BY CASE WHEN state = 'published' THEN 1 ELSE 0 END, updated_at DESC, id DESC`,
  );
}

/**
 * The author's new save of an editable change (draft, review, approved): new texts, the next revision,
 * no approval; a draft stays a draft, anything else is in review again. Returns the new revision, or
 * undefined when the change is not the author's or not editable.
 */
export async function saveChange(
  t: Queryable,
  id: number,
  author: string,
  texts: { note: string; filesJson: string; baseJson: string },
  now: number,
): Promise<number | undefined> {
  const row = await t.get<{ revision: number }>(
    `UPDATE studio_changes SET note = ?, files = ?, base = ?, revision = revision + 1, approved_by = NULL, updated_at = ?,
       state = CASE WHEN state = 'draft' THEN 'draft' ELSE 'review' END
     WHERE id = ? AND author = ? AND state IN ('draft', 'review', 'approved') RETURNING revision`,
    [texts.note, texts.filesJson, texts.baseJson, now, id, author],
  );
  return row?.revision;
}

/**
 * Moves a change in one of `from` to `to` (approved: by `approvedBy`), only at `revision` when given.
 * Returns its revision, or undefined when its state or revision was another.
 */
export async function moveChange(
  t: Queryable,
  id: number,
  step: { from: readonly ChangeState[]; to: ChangeState; approvedBy: string | null; revision: number | null },
  now: number,
): Promise<number | undefined> {
  const row = await t.get<{ revision: number }>(
    `UPDATE studio_changes SET state = ?, approved_by = ?, updated_at = ?
     WHERE id = ? AND state IN (${step.from.map(() => '?').join(', ')}) AND (CAST(? AS INTEGER) IS NULL OR revision = ?) RETURNING revision`,
    [step.to, step.approvedBy, now, id, ...step.from, step.revision, step.revision],
  );
  return row?.revision;
}

/** Approved at `revision` → published with its version; false when no longer so. */
export async function markPublished(t: Queryable, id: number, version: number, revision: number, now: number): Promise<boolean> {
  const { changes } = await t.run(
    `UPDATE studio_changes SET state = 'published', version = ?, updated_at = ? WHERE id = ? AND state = 'approved' AND revision = ?`,
    [version, now, id, revision],
  );
  return changes === 1;
}
