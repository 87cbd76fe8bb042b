/**
 * The embedded SQLite connection under the data layer's SQLite adapter (sqlite.ts, which alone holds
 * it): opening with the pragmas every instance uses, and the migration runner. Services never see it;
 * they use the async `Database` (data.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { sha256 } from '../crypto/primitives.js';
import { loadMigrations } from './migrations.js';

export type Db = Database.Database;

/** Open a connection with the pragmas every instance uses (busy timeout, WAL, synchronous FULL, foreign keys); no migration. */
export function openSqliteConnection(dbPath: string): Db {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const db = new Database(dbPath);
  // First: another instance may hold the lock while it migrates (switching to WAL needs it too).
  db.pragma('busy_timeout = 5000');
  if (dbPath !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL may lose the last commits on power loss; FULL syncs every commit
    // (a sign-in that answered SUCCESS has its session on disk).
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  return db;
}

/**
 * Apply server/db/migrations/NNN_name.sql in file-name order, each once. All of it runs in one
 * BEGIN IMMEDIATE transaction: two instances starting together on a fresh file take turns (the second
 * waits for the write lock, then finds everything applied) instead of both applying 001.
 */
export function migrate(db: Db): string[] {
  const migrations = loadMigrations('sqlite');
  // Migrations that hash stored codes (005) call fd_sha256(text): sha256 hex, as crypto/primitives.ts makes it.
  db.function('fd_sha256', { deterministic: true }, (value: unknown) => (value === null ? null : sha256(String(value))));
  return db
    .transaction(() => {
      db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
      const applied = new Set((db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name));
      const done: string[] = [];
      for (const { name, sql } of migrations) {
        if (applied.has(name)) continue;
        db.exec(sql);
        db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(name, Date.now());
        done.push(name);
      }
      return done;
    })
    .immediate();
}
