import type { VersionKind, VersionSummary } from '../../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../../db/data.js';
import { readCatalogueFiles, writeFiles } from './files.js';

/**
 * The catalogue's versions, kept in the database so that every instance sees one history. The files
 * of screens/ and locales/ stay the truth of what runs: a version records the full text of the files
 * it changed (null: the file went), and the catalogue at version N is, per file, its text in the last
 * version up to N that has it. Version 1 is the catalogue as the studio first found it.
 *
 * Each instance keeps its files in step with the history (sync): before a publish or a rollback, when
 * the history is read, and every few seconds when another instance added a version.
 *  - A file that differs from the version this instance last wrote or read was changed outside the
 *    studio (by hand, by git): it is recorded as a version of kind 'outside', so nothing goes unseen.
 *  - A file that another instance's version changed, and that is here as this instance left it, is
 *    written here (the instance follows), and the app is rebuilt.
 *  - At start the instance does not know which version its files were at: a file whose text some
 *    version had is behind (it follows), any other text is an outside change.
 */
export type FileTexts = Record<string, string | null>;

export interface VersionMeta {
  kind: VersionKind;
  author: string;
  approver?: string | null;
  note: string;
  changeId?: number | null;
  restores?: number | null;
}

interface VersionRow {
  number: number;
  kind: VersionKind;
  author: string;
  approver: string | null;
  note: string;
  change_id: number | null;
  restores: number | null;
  created_at: number;
}

/** A side's files as the check reads them: a file that did not exist is an empty one (no texts). */
export const asTexts = (files: FileTexts): Record<string, string> => Object.fromEntries(Object.entries(files).map(([p, t]) => [p, t ?? '{}']));

/** Another instance added a version while this one was recording: sync again. */
class MovedOn extends Error {}

const summary = (row: VersionRow, files: string[]): VersionSummary => ({
  number: row.number,
  kind: row.kind,
  author: row.author,
  ...(row.approver ? { approver: row.approver } : {}),
  note: row.note,
  ...(row.change_id !== null ? { changeId: row.change_id } : {}),
  ...(row.restores !== null ? { restores: row.restores } : {}),
  createdAt: row.created_at,
  files,
});

/** The versions as the database keeps them: the latest number, a version's files, recording one, whether a text was ever a version's, the summaries. */
function versionStore(data: Database, now: () => number) {
  const latest = async (q: Queryable = data): Promise<number> => (await q.get<{ n: number | null }>('SELECT max(number) AS n FROM studio_versions'))?.n ?? 0;
  return {
    latest,
    async snapshot(version: number, q: Queryable = data): Promise<FileTexts> {
      const rows = await q.all<{ path: string; text: string | null }>(
        `SELECT f.path, f.text FROM studio_version_files f
       JOIN (SELECT path, max(version) AS v FROM studio_version_files WHERE version <= ? GROUP BY path) m ON m.path = f.path AND m.v = f.version`,
        [version],
      );
      return Object.fromEntries(rows.map((row) => [row.path, row.text]));
    },
    /** Records a version inside t: the next number and the text of each file it changed. */
    async record(t: Queryable, meta: VersionMeta, files: FileTexts): Promise<number> {
      const number = (await latest(t)) + 1;
      await t.run('INSERT INTO studio_versions (number, kind, author, approver, note, change_id, restores, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)', [
        number,
        meta.kind,
        meta.author,
        meta.approver ?? null,
        meta.note,
        meta.changeId ?? null,
        meta.restores ?? null,
        now(),
      ]);
      for (const [path, text] of Object.entries(files).sort(([a], [b]) => a.localeCompare(b)))
        await t.run('INSERT INTO studio_version_files (version, path, text) VALUES (?, ?, ?)', [number, path, text]);
      return number;
    },
    /** Whether some version had this text of the file (null: the file did not exist at some version). */
    async known(path: string, text: string | null): Promise<boolean> {
      if (text === null) {
        const absent = await data.get('SELECT 1 AS yes FROM studio_version_files WHERE path = ? AND text IS NULL', [path]);
        const inFirst = await data.get('SELECT 1 AS yes FROM studio_version_files WHERE version = 1 AND path = ?', [path]);
        return absent !== undefined || inFirst === undefined;
      }
      return (await data.get('SELECT 1 AS yes FROM studio_version_files WHERE path = ? AND text = ?', [path, text])) !== undefined;
    },
    async list(): Promise<VersionSummary[]> {
      const rows = await data.all<VersionRow>('SELECT * FROM studio_versions ORDER BY number DESC');
      const files = await data.all<{ version: number; path: string }>('SELECT version, path FROM studio_version_files ORDER BY path');
      const byVersion = new Map<number, string[]>();
      for (const f of files) (byVersion.get(f.version) ?? byVersion.set(f.version, []).get(f.version))?.push(f.path);
      return rows.map((row) => summary(row, byVersion.get(row.number) ?? []));
    },
    async version(number: number): Promise<VersionSummary | undefined> {
      const row = await data.get<VersionRow>('SELECT * FROM studio_versions WHERE number = ?', [number]);
      if (!row) return undefined;
      const files = await data.all<{ path: string }>('SELECT path FROM studio_version_files WHERE version = ? ORDER BY path', [number]);
      return summary(
        row,
        files.map((f) => f.path),
      );
    },
  };
}

type VersionStore = ReturnType<typeof versionStore>;

/**
 * Where the files on disk stand against the newest version: those changed outside the studio (to record)
 * and those behind it (to write), by the version this instance applied last (else by whether a text
 * was ever a version's).
 */
async function compareWithDisk(store: VersionStore, root: string, top: number, applied: number | undefined) {
  const disk: FileTexts = readCatalogueFiles(root);
  const newest = await store.snapshot(top);
  const base = applied === undefined ? undefined : applied === top ? newest : await store.snapshot(applied);
  const outside: FileTexts = {};
  const behind: FileTexts = {};
  for (const path of new Set([...Object.keys(disk), ...Object.keys(newest)])) {
    const here = disk[path] ?? null;
    const there = newest[path] ?? null;
    if (here === there) continue;
    const follows = base ? here === (base[path] ?? null) : await store.known(path, here);
    if (follows) behind[path] = there;
    else outside[path] = here;
  }
  return { outside, behind };
}

export function createHistory(data: Database, root: string, now: () => number, onWritten: (paths: string[]) => void) {
  const store = versionStore(data, now);
  const { latest, snapshot, record } = store;
  /** The version this instance's files were last aligned with (undefined until the first sync). */
  let applied: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();

  async function syncOnce(): Promise<string[]> {
    if ((await latest()) === 0) {
      const disk: FileTexts = readCatalogueFiles(root);
      await data.tx(async (t) => {
        if ((await latest(t)) === 0) await record(t, { kind: 'baseline', author: '', note: '' }, disk);
      });
    }
    const top = await latest();
    const { outside, behind } = await compareWithDisk(store, root, top, applied);
    let aligned = top;
    if (Object.keys(outside).length > 0) {
      aligned = await data.tx(async (t) => {
        if ((await latest(t)) !== top) throw new MovedOn();
        return record(t, { kind: 'outside', author: '', note: '' }, outside);
      });
    }
    const written = Object.keys(behind).length > 0 ? writeFiles(root, behind) : [];
    applied = aligned;
    if (written.length > 0) onWritten(written);
    return written;
  }

  /** Brings the history and this instance's files together; the paths it wrote here. */
  async function sync(): Promise<string[]> {
    for (let attempt = 0; ; attempt += 1) {
      try {
        return await syncOnce();
      } catch (error) {
        if (!(error instanceof MovedOn) || attempt >= 4) throw error;
      }
    }
  }

  return {
    latest,
    snapshot,
    /** The files that differ between two versions, with their texts at each. */
    async sides(from: number, to: number): Promise<{ before: FileTexts; after: FileTexts }> {
      const [a, b] = await Promise.all([snapshot(from), snapshot(to)]);
      const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => (a[p] ?? null) !== (b[p] ?? null));
      return {
        before: Object.fromEntries(paths.map((p) => [p, a[p] ?? null])),
        after: Object.fromEntries(paths.map((p) => [p, b[p] ?? null])),
      };
    },
    record,
    sync,
    /** The version this instance's files are at (after a sync). */
    applied: () => applied ?? 0,
    /** After this instance wrote a version's files itself. */
    wrote(version: number) {
      applied = version;
    },
    /** Runs history actions of this instance one at a time (sync, publish, rollback). */
    exclusive<T>(fn: () => Promise<T>): Promise<T> {
      const run = queue.then(fn, fn);
      queue = run.catch(() => undefined);
      return run;
    },
    list: store.list,
    version: store.version,
  };
}

export type History = ReturnType<typeof createHistory>;
