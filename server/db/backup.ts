/**
 * A consistent copy of the embedded SQLite database while servers use it: `VACUUM INTO` (SQLite 3.27+,
 * in better-sqlite3). It reads one snapshot (WAL: writers go on meanwhile) and writes a compact,
 * self-contained file (no -wal beside it), through the same connection as every other statement.
 * Chosen over better-sqlite3's page-by-page backup API, which starts again whenever another process
 * writes during the copy (a busy server could keep it from finishing) and needs the raw connection.
 * PostgreSQL has pg_dump for this (docs/deploy.md).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Database } from './data.js';

export async function backupSqlite(db: Database, to: string): Promise<number> {
  if (db.engine !== 'sqlite') throw new Error('backups of PostgreSQL are pg_dump’s (docs/deploy.md)');
  const target = path.resolve(to);
  if (fs.existsSync(target)) throw new Error(`${target} exists already: a backup is written to a new file`);
  fs.mkdirSync(path.dirname(target), { recursive: true });
  await db.run('VACUUM INTO ?', [target]);
  return fs.statSync(target).size;
}
