/**
 * The embedded SQLite connection under the data layer's SQLite adapter (sqlite.ts, which alone holds
 * it): opening with the pragmas every instance uses (migrations.ts migrates it). Services never see it;
 * they use the async `Database` (data.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export type Db = Database.Database;

/** How long a statement waits for another connection's write lock before SQLITE_BUSY. */
export const BUSY_TIMEOUT_MS = 5000;

/** Open a connection with the pragmas every instance uses (busy timeout, WAL, synchronous FULL, foreign keys); no migration. */
export function openSqliteConnection(dbPath: string): Db {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const db = new Database(dbPath);
  // First: another instance may hold the lock while it migrates (switching to WAL needs it too).
  db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  if (dbPath !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL may lose the last commits on power loss; FULL syncs every commit
    // (a sign-in that answered SUCCESS has its session on disk).
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  return db;
}
