import type { ChangeEvent, ChangeState, ChangeSummary } from '../../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../../db/data.js';
import {
  type EventRow,
  changeRow,
  eventRows,
  insertChange,
  insertEvent,
  liveChangeRows,
  markPublished,
  moveChange,
  saveChange,
  type ChangeRow,
} from '../../db/studioChanges.js';
import type { FileTexts } from './history.js';

/**
 * Drafts and their review, in the database (every instance sees the same): a change holds the text
 * of each file it changes (`files`) and the text it had when the draft was saved (`base`). Each save
 * is a new `revision`. Each step of its life is a conditional update on its state (two approvers
 * clicking at once: one wins) and, for a decision, on the revision it names (an approval of revision 2
 * cannot land on revision 3), and an event (who, when, which revision, the comment of a send-back).
 */

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

const eventOf = (r: EventRow): ChangeEvent => ({
  at: r.at,
  who: r.who,
  action: r.action,
  ...(r.comment !== null ? { comment: r.comment } : {}),
  ...(r.revision !== null ? { revision: r.revision } : {}),
});

export function createChanges(data: Database, now: () => number) {
  const event = (q: Queryable, id: number, who: string, action: ChangeEvent['action'], revision: number, comment?: string) =>
    insertEvent(q, id, { at: now(), who, action, comment: comment ?? null, revision });

  return {
    async create(author: string, screenId: string, note: string, after: Record<string, string>, before: FileTexts): Promise<number> {
      return data.tx(async (t) => {
        const id = await insertChange(t, { screenId, note, author, filesJson: JSON.stringify(after), baseJson: JSON.stringify(before) }, now());
        await event(t, id, author, 'created', 1);
        return id;
      });
    },

    async get(id: number): Promise<Change | undefined> {
      const row = await changeRow(data, id);
      return row ? changeOf(row) : undefined;
    },

    async events(id: number): Promise<ChangeEvent[]> {
      return (await eventRows(data, id)).map(eventOf);
    },

    /** Open changes first (newest first), then the last published ones. */
    async list(): Promise<ChangeSummary[]> {
      const rows = await liveChangeRows(data);
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
        const revision = await saveChange(t, id, author, { note, filesJson: JSON.stringify(after), baseJson: JSON.stringify(before) }, now());
        if (revision !== undefined) await event(t, id, author, 'saved', revision);
        return revision !== undefined;
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
        const move = { from: step.from, to: step.to, approvedBy: step.to === 'approved' ? who : null, revision: step.revision ?? null };
        const revision = await moveChange(t, id, move, now());
        if (revision !== undefined) await event(t, id, who, step.action, revision, step.comment);
        return revision !== undefined;
      });
    },

    /** Records an event of the change (a rollout started, promoted or stopped) inside the caller's transaction. */
    async record(t: Queryable, id: number, who: string, action: ChangeEvent['action'], revision: number, comment?: string): Promise<void> {
      await event(t, id, who, action, revision, comment);
    },

    /** Inside the publish's transaction: approved at `revision` → published with its version; false when no longer so. */
    async published(t: Queryable, id: number, who: string, version: number, revision: number): Promise<boolean> {
      const done = await markPublished(t, id, version, revision, now());
      if (done) await event(t, id, who, 'published', revision);
      return done;
    },
  };
}

export type Changes = ReturnType<typeof createChanges>;
