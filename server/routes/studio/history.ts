import type { VersionKind, VersionSummary } from '../../../catalogue/studio-contract.js';
import type { Database, Queryable } from '../../db/data.js';
import {
  filesAt,
  inFirstVersion,
  insertVersion,
  latestVersion,
  versionHadText,
  versionPaths,
  versionRow,
  versionRows,
  type VersionRow,
} from '../../db/studioVersions.js';
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

/** A side's files as the check reads them: a file that did not exist is an empty one (no texts). */
export const asTexts = (files: FileTexts): Record<string, string> => Object.fromEntries(Object.entries(files).map(([p, t]) => [p, t ?? '{}']));

/** Another instance added a version while this one was recording: sync again. */
class MovedOn extends Error {}

async function snapshotAt(q: Queryable, version: number): Promise<FileTexts> {
  const rows = await filesAt(q, version);
  return Object.fromEntries(rows.map((row) => [row.path, row.text]));
}

/** Records a version inside t: the next number and the text of each file it changed. */
async function recordVersion(t: Queryable, meta: VersionMeta, files: FileTexts, at: number): Promise<number> {
  const number = (await latestVersion(t)) + 1;
  const row = {
    number,
    kind: meta.kind,
    author: meta.author,
    approver: meta.approver ?? null,
    note: meta.note,
    change_id: meta.changeId ?? null,
    restores: meta.restores ?? null,
    created_at: at,
  };
  await insertVersion(
    t,
    row,
    Object.entries(files).sort(([a], [b]) => a.localeCompare(b)),
  );
  return number;
}

/** Whether some version had this text of the file (null: the file did not exist at some version). */
async function known(q: Queryable, path: string, text: string | null): Promise<boolean> {
  if (text === null) return (await versionHadText(q, path, null)) || !(await inFirstVersion(q, path));
  return versionHadText(q, path, text);
}

/**
 * Sorts the files that differ between the disk and the newest version: those that follow (as this
 * instance left them, or, at start, a text some version had) are behind; the others were changed outside.
 */
async function divide(q: Queryable, disk: FileTexts, newest: FileTexts, base: FileTexts | undefined): Promise<{ outside: FileTexts; behind: FileTexts }> {
  const outside: FileTexts = {};
  const behind: FileTexts = {};
  for (const path of new Set([...Object.keys(disk), ...Object.keys(newest)])) {
    const here = disk[path] ?? null;
    const there = newest[path] ?? null;
    if (here === there) continue;
    const follows = base ? here === (base[path] ?? null) : await known(q, path, here);
    if (follows) behind[path] = there;
    else outside[path] = here;
  }
  return { outside, behind };
}

/** The files that differ between two versions, with their texts at each. */
async function sidesBetween(q: Queryable, from: number, to: number): Promise<{ before: FileTexts; after: FileTexts }> {
  const [a, b] = await Promise.all([snapshotAt(q, from), snapshotAt(q, to)]);
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].filter((p) => (a[p] ?? null) !== (b[p] ?? null));
  return {
    before: Object.fromEntries(paths.map((p) => [p, a[p] ?? null])),
    after: Object.fromEntries(paths.map((p) => [p, b[p] ?? null])),
  };
}

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

async function listVersions(q: Queryable): Promise<VersionSummary[]> {
  const rows = await versionRows(q);
  const files = await versionPaths(q);
  const byVersion = new Map<number, string[]>();
  for (const f of files) (byVersion.get(f.version) ?? byVersion.set(f.version, []).get(f.version))?.push(f.path);
  return rows.map((row) => summary(row, byVersion.get(row.number) ?? []));
}

async function versionSummary(q: Queryable, number: number): Promise<VersionSummary | undefined> {
  const row = await versionRow(q, number);
  if (!row) return undefined;
  const files = await versionPaths(q, number);
  return summary(
    row,
    files.map((f) => f.path),
  );
}

export function createHistory(data: Database, root: string, now: () => number, onWritten: (paths: string[]) => void) {
  /** The version this instance's files were last aligned with (undefined until the first sync). */
  let applied: number | undefined;
  let queue: Promise<unknown> = Promise.resolve();
  const latest = (q: Queryable = data): Promise<number> => latestVersion(q);
  const snapshot = (version: number, q: Queryable = data): Promise<FileTexts> => snapshotAt(q, version);
  const record = (t: Queryable, meta: VersionMeta, files: FileTexts): Promise<number> => recordVersion(t, meta, files, now());

  async function syncOnce(): Promise<string[]> {
    const disk: FileTexts = readCatalogueFiles(root);
    if ((await latest()) === 0) {
      await data.tx(async (t) => {
        if ((await latest(t)) === 0) await record(t, { kind: 'baseline', author: '', note: '' }, disk);
      });
    }
    const top = await latest();
    const newest = await snapshot(top);
    const base = applied === undefined ? undefined : applied === top ? newest : await snapshot(applied);
    const { outside, behind } = await divide(data, disk, newest, base);
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
    sides: (from: number, to: number) => sidesBetween(data, from, to),
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
    list: () => listVersions(data),
    version: (number: number) => versionSummary(data, number),
  };
}

export type History = ReturnType<typeof createHistory>;
