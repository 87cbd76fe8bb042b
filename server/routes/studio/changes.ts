import type { ChangeEvent, ChangeState, ChangeSummary } from '../../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../../db/data.js';
import type { FileTexts } from './history.js';

/**
 * Drafts and their review, in the database (every instance sees the same): a change holds the text
 * of each file it changes (`files`) and the text it had when the draft was saved (`base`). Each save
 * is a new `revision`. Each step of its life is a conditional update on its state (two approvers
 * clicking at once: one wins) and, for a decision, on the revision it names (an approval of revision 2
 * cannot land on revision 3), and an event (who, when, which revision, the comment of a send-back).
 */
interface ChangeRow {
  id: number;
  screen_id: string;
  note: string;
  author: string;
  state: ChangeState;
  files: string;
  base: string;
  revision: number;
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
    revision: row.revision,
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

interface EventRow {
  at: number;
  who: string;
  action: ChangeEvent['action'];
  comment: string | null;
  revision: number | null;
}

const eventOf = (r: EventRow): ChangeEvent => ({
  at: r.at,
  who: r.who,
  action: r.action,
  ...(r.comment !== null ? { comment: r.comment } : {}),
  ...(r.revision !== null ? { revision: r.revision } : {}),
});

export function createChanges(data: Database, now: () => number) {
  const event = (q: Queryable, id: number, who: string, action: ChangeEvent['action'], revision: number, comment?: string) =>
    q.run('INSERT INTO studio_change_events (change_id, at, who, action, comment, revision) VALUES (?, ?, ?, ?, ?, ?)', [
      id,
      now(),
      who,
      action,
      comment ?? null,
      revision,
    ]);

  return {
    async create(author: string, screenId: string, note: string, after: Record<string, string>, before: FileTexts): Promise<number> {
      return data.tx(async (t) => {
        const row = await t.get<{ id: number }>(
          `INSERT INTO studio_changes (screen_id, note, author, state, files, base, revision, created_at, updated_at)
           VALUES (?, ?, ?, 'draft', ?, ?, 1, ?, ?) RETURNING id`,
          [screenId, note, author, JSON.stringify(after), JSON.stringify(before), now(), now()],
        );
        if (!row) throw new Error('no id for the new change');
        await event(t, row.id, author, 'created', 1);
        return row.id;
      });
    },

    async get(id: number): Promise<Change | undefined> {
      const row = await data.get<ChangeRow>('SELECT * FROM studio_changes WHERE id = ?', [id]);
      return row ? changeOf(row) : undefined;
    },

    async events(id: number): Promise<ChangeEvent[]> {
      const rows = await data.all<EventRow>('SELECT at, who, action, comment, revision FROM studio_change_events WHERE change_id = ? ORDER BY id', [id]);
      return rows.map(eventOf);
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

    /**
     * The author saves the change again: new texts, a new revision, and no approval (an approval is of
     * the revision approved). A draft stays a draft; a change in review or approved is in review again.
     */
    async update(id: number, author: string, note: string, after: Record<string, string>, before: FileTexts): Promise<boolean> {
      return data.tx(async (t) => {
        const row = await t.get<{ revision: number }>(
          `UPDATE studio_changes SET note = ?, files = ?, base = ?, revision = revision + 1, approved_by = NULL, updated_at = ?,
             state = CASE WHEN state = 'draft' THEN 'draft' ELSE 'review' END
           WHERE id = ? AND author = ? AND state IN ('draft', 'review', 'approved') RETURNING revision`,
          [note, JSON.stringify(after), JSON.stringify(before), now(), id, author],
        );
        if (row) await event(t, id, author, 'saved', row.revision);
        return row !== undefined;
      });
    },

    /**
     * Moves a change from one of `from` to `to` and records the event; false when its state was another,
     * or (`revision` given: a decision about what the person read) when it is at another revision.
     */
    async move(
      id: number,
      who: string,
      step: { from: readonly ChangeState[]; to: ChangeState; action: ChangeEvent['action']; revision?: number; comment?: string },
    ): Promise<boolean> {
      return data.tx(async (t) => {
        const row = await t.get<{ revision: number }>(
          `UPDATE studio_changes SET state = ?, approved_by = ?, updated_at = ?
           WHERE id = ? AND state IN (${step.from.map(() => '?').join(', ')}) AND (CAST(? AS INTEGER) IS NULL OR revision = ?) RETURNING revision`,
          [step.to, step.to === 'approved' ? who : null, now(), id, ...step.from, step.revision ?? null, step.revision ?? null],
        );
        if (row) await event(t, id, who, step.action, row.revision, step.comment);
        return row !== undefined;
      });
    },

    /** Inside the publish's transaction: approved at `revision` → published with its version; false when no longer so. */
    async published(t: Queryable, id: number, who: string, version: number, revision: number): Promise<boolean> {
      const { changes } = await t.run(
        `UPDATE studio_changes SET state = 'published', version = ?, updated_at = ? WHERE id = ? AND state = 'approved' AND revision = ?`,
        [version, now(), id, revision],
      );
      if (changes === 1) await event(t, id, who, 'published', revision);
      return changes === 1;
    },
  };
}

export type Changes = ReturnType<typeof createChanges>;
