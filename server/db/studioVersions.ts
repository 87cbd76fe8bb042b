/**
 * The catalogue's versions (tables studio_versions and studio_version_files, migration 030): each
 * version records the full text of the files it changed (null: the file went); the catalogue at
 * version N is, per file, its text in the last version up to N that has it. The rules of recording
 * and following them are server/routes/studio/history.ts's.
 */
import type { VersionKind } from '../../catalogue/studio-contract.js';
import type { Queryable } from './data.js';

export interface VersionRow {
  number: number;
  kind: VersionKind;
  author: string;
  approver: string | null;
  note: string;
  change_id: number | null;
  restores: number | null;
  created_at: number;
}

const COLUMNS = 'number, kind, author, approver, note, change_id, restores, created_at';

/** The newest version's number (0: none yet). */
export async function latestVersion(q: Queryable): Promise<number> {
  return (await q.get<{ n: number | null }>('SELECT max(number) AS n FROM studio_versions'))?.n ?? 0;
}

/** Each file's text at `version` (the last version up to it that has the file). */
export async function filesAt(q: Queryable, version: number): Promise<Array<{ path: string; text: string | null }>> {
  return q.all<{ path: string; text: string | null }>(
    `SELECT f.path, f.text FROM studio_version_files f
     JOIN (SELECT path, max(version) AS v FROM studio_version_files WHERE version <= ? GROUP BY path) m ON m.path = f.path AND m.v = f.version`,
    [version],
  );
}

/** A version and the text of each file it changed (in path order). */
export async function insertVersion(t: Queryable, row: VersionRow, files: ReadonlyArray<readonly [string, string | null]>): Promise<void> {
  await t.run(`INSERT INTO studio_versions (${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`, [
    row.number,
    row.kind,
    row.author,
    row.approver,
    row.note,
    row.change_id,
    row.restores,
    row.created_at,
  ]);
  for (const [path, text] of files) await t.run('INSERT INTO studio_version_files (version, path, text) VALUES (?, ?, ?)', [row.number, path, text]);
}

/** Whether some version had this text of the file (null: some version removed it). */
export async function versionHadText(q: Queryable, path: string, text: string | null): Promise<boolean> {
  const row =
    text === null
      ? await q.get('SELECT 1 AS yes FROM studio_version_files WHERE path = ? AND text IS NULL', [path])
      : await q.get('SELECT 1 AS yes FROM studio_version_files WHERE path = ? AND text = ?', [path, text]);
  return row !== undefined;
}

/** Whether the first version (the catalogue as the studio found it) has the file. */
export async function inFirstVersion(q: Queryable, path: string): Promise<boolean> {
  return (await q.get('SELECT 1 AS yes FROM studio_version_files WHERE version = 1 AND path = ?', [path])) !== undefined;
}

/** Every version, newest first. */
export async function versionRows(q: Queryable): Promise<VersionRow[]> {
  return q.all<VersionRow>(`SELECT ${COLUMNS} FROM studio_versions ORDER BY number DESC`);
}

export async function versionRow(q: Queryable, number: number): Promise<VersionRow | undefined> {
  return q.get<VersionRow>(`SELECT ${COLUMNS} FROM studio_versions WHERE number = ?`, [number]);
}

/** The paths each version changed (all versions, or one), in path order. */
export async function versionPaths(q: Queryable, number?: number): Promise<Array<{ version: number; path: string }>> {
  return number === undefined
    ? q.all<{ version: number; path: string }>('SELECT version, path FROM studio_version_files ORDER BY path')
    : q.all<{ version: number; path: string }>('SELECT version, path FROM studio_version_files WHERE version = ? ORDER BY path', [number]);
}
