import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Database from 'better-sqlite3';

export type Db = Database.Database;

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/** Open (creating the directory when needed) and migrate a database. ':memory:' is allowed. */
export function openDb(dbPath: string): Db {
  if (dbPath !== ':memory:') fs.mkdirSync(path.dirname(path.resolve(dbPath)), { recursive: true });
  const db = new Database(dbPath);
  if (dbPath !== ':memory:') {
    db.pragma('journal_mode = WAL');
    // WAL with synchronous=NORMAL may lose the last commits on power loss; FULL syncs every commit
    // (a sign-in that answered SUCCESS has its session on disk).
    db.pragma('synchronous = FULL');
  }
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/** Apply server/db/migrations/NNN_name.sql in file-name order, each once, each in a transaction. */
export function migrate(db: Db): string[] {
  db.exec('CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at INTEGER NOT NULL)');
  const applied = new Set((db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name));
  const files = fs.readdirSync(MIGRATIONS_DIR).filter((f) => /^\d+_.*\.sql$/.test(f)).sort();
  const done: string[] = [];
  for (const file of files) {
    if (applied.has(file)) continue;
    const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
    db.transaction(() => {
      db.exec(sql);
      db.prepare('INSERT INTO schema_migrations (name, applied_at) VALUES (?, ?)').run(file, Date.now());
    })();
    done.push(file);
  }
  return done;
}

/** Names of every data table (all but schema_migrations and sqlite internals). */
export function dataTables(db: Db): string[] {
  return (db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name <> 'schema_migrations'").all() as { name: string }[]).map((r) => r.name);
}

/** Delete every row of every data table (foreign keys off meanwhile). */
export function wipe(db: Db): void {
  db.pragma('foreign_keys = OFF');
  try {
    db.transaction(() => {
      for (const t of dataTables(db)) db.exec(`DELETE FROM "${t}"`);
    })();
  } finally {
    db.pragma('foreign_keys = ON');
  }
}
