import type { ChangeEvent, ChangeState, ChangeSummary } from '../../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../../db/data.js';
import type { FileTexts } from './history.js';

/**
 * Drafts and their review, in the database (every instance sees the same): a change holds the text
 * of each file it changes (`files`) and the text it had when the draft was saved (`base`). Each step
 * of its life is a conditional update on its state (two approvers clicking at once: one wins), and
 * an event (who, when, the comment of a send-back).
 */
interface ChangeRow {
  id: number;
  screen_id: string;
  note: string;
  author: string;
  state: ChangeState;
  files: string;
  base: string;
  approved_by: string | null;
  version: number | null;
  created_at: number;
  updated_at: number;
}

export interface Change extends ChangeSummary {
  files: string[];
  /** The change's files as it has them. */
  after: Record<string, string>;
  /** Their texts when the draft was saved (null: the file did not exist). */
  before: FileTexts;
}

const parseTexts = <T>(text: string): Record<string, T> => JSON.parse(text) as Record<string, T>;

function changeOf(row: ChangeRow): Change {
  const after = parseTexts<string>(row.files);
  return {
    id: row.id,
    screenId: row.screen_id,
    note: row.note,
    author: row.author,
    state: row.state,
    ...(row.approved_by ? { approvedBy: row.approved_by } : {}),
    ...(row.version !== null ? { version: row.version } : {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    files: Object.keys(after).sort(),
    after,
    before: parseTexts<string | null>(row.base),
  };
}

export const summaryOf = ({ after: _after, before: _before, ...summary }: Change): ChangeSummary => summary;

/** The states a change can be edited in by its author (an edit takes it back to draft: a new approval is needed). */
export const EDITABLE: readonly ChangeState[] = ['draft', 'review', 'approved'];

export function createChanges(data: Database, now: () => number) {
  const event = (q: Queryable, id: number, who: string, action: ChangeEvent['action'], comment?: string) =>
    q.run('INSERT INTO studio_change_events (change_id, at, who, action, comment) VALUES (?, ?, ?, ?, ?)', [id, now(), who, action, comment ?? null]);

  return {
    async create(author: string, screenId: string, note: string, after: Record<string, string>, before: FileTexts): Promise<number> {
      return data.tx(async (t) => {
        const row = await t.get<{ id: number }>(
          `INSERT INTO studio_changes (screen_id, note, author, state, files, base, created_at, updated_at)
           VALUES (?, ?, ?, 'draft', ?, ?, ?, ?) RETURNING id`,
          [screenId, note, author, JSON.stringify(after), JSON.stringify(before), now(), now()],
        );
        if (!row) throw new Error('no id for the new change');
        await event(t, row.id, author, 'created');
        return row.id;
      });
    },

    async get(id: number): Promise<Change | undefined> {
      const row = await data.get<ChangeRow>('SELECT * FROM studio_changes WHERE id = ?', [id]);
      return row ? changeOf(row) : undefined;
    },

    async events(id: number): Promise<ChangeEvent[]> {
      const rows = await data.all<{ at: number; who: string; action: ChangeEvent['action']; comment: string | null }>(
        'SELECT at, who, action, comment FROM studio_change_events WHERE change_id = ? ORDER BY id',
        [id],
      );
      return rows.map((r) => ({ at: r.at, who: r.who, action: r.action, ...(r.comment !== null ? { comment: r.comment } : {}) }));
    },

    /** Open changes first (newest first), then the last published ones. */
    async list(): Promise<ChangeSummary[]> {
      const rows = await data.all<ChangeRow>(
        `SELECT * FROM studio_changes WHERE state <> 'discarded'
         ORDER BY CASE WHEN state = 'published' THEN 1 ELSE 0 END, updated_at DESC, id DESC`,
      );
      const open = rows.filter((r) => r.state !== 'published');
      const published = rows.filter((r) => r.state === 'published').slice(0, 20);
      return [...open, ...published].map((row) => summaryOf(changeOf(row)));
    },

    /** The author saves the draft again: new texts, back to draft (an approval is for the texts approved). */
    async update(id: number, author: string, note: string, after: Record<string, string>, before: FileTexts): Promise<boolean> {
      return data.tx(async (t) => {
        const { changes } = await t.run(
          `UPDATE studio_changes SET note = ?, files = ?, base = ?, state = 'draft', approved_by = NULL, updated_at = ?
           WHERE id = ? AND author = ? AND state IN ('draft', 'review', 'approved')`,
          [note, JSON.stringify(after), JSON.stringify(before), now(), id, author],
        );
        if (changes === 1) await event(t, id, author, 'saved');
        return changes === 1;
      });
    },

    /** Moves a change from one of `from` to `to` and records the event; false when its state was another. */
    async move(id: number, who: string, from: readonly ChangeState[], to: ChangeState, action: ChangeEvent['action'], comment?: string): Promise<boolean> {
      return data.tx(async (t) => {
        const { changes } = await t.run(
          `UPDATE studio_changes SET state = ?, approved_by = ?, updated_at = ? WHERE id = ? AND state IN (${from.map(() => '?').join(', ')})`,
          [to, to === 'approved' ? who : null, now(), id, ...from],
        );
        if (changes === 1) await event(t, id, who, action, comment);
        return changes === 1;
      });
    },

    /** Inside the publish's transaction: approved → published with its version; false when no longer approved. */
    async published(t: Queryable, id: number, who: string, version: number, approvedAt: number): Promise<boolean> {
      const { changes } = await t.run(
        `UPDATE studio_changes SET state = 'published', version = ?, updated_at = ? WHERE id = ? AND state = 'approved' AND updated_at = ?`,
        [version, now(), id, approvedAt],
      );
      if (changes === 1) await event(t, id, who, 'published');
      return changes === 1;
    },
  };
}

export type Changes = ReturnType<typeof createChanges>;
