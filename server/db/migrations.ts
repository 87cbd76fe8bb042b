/**
 * Where the migrations of each engine live, and the rule that binds them: every SQLite migration
 * (server/db/migrations/NNN_name.sql) has its PostgreSQL port under the same file name in
 * server/db/migrations/postgres/, and the other way round. Both runners apply them in name order,
 * each once, recording the name in schema_migrations.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Engine } from './data.js';

export const SQLITE_MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
export const POSTGRES_MIGRATIONS_DIR = path.join(SQLITE_MIGRATIONS_DIR, 'postgres');

const MIGRATION_FILE = /^\d+_.*\.sql$/;

export interface Migration {
  name: string;
  sql: string;
}

export function migrationNames(engine: Engine): string[] {
  const dir = engine === 'sqlite' ? SQLITE_MIGRATIONS_DIR : POSTGRES_MIGRATIONS_DIR;
  return fs
    .readdirSync(dir)
    .filter((f) => MIGRATION_FILE.test(f))
    .sort();
}

/** File names present for one engine only (each a message naming the file to write). */
export function unportedMigrations(): string[] {
  const sqlite = migrationNames('sqlite');
  const postgres = migrationNames('postgres');
  return [
    ...sqlite.filter((f) => !postgres.includes(f)).map((f) => `server/db/migrations/${f} has no PostgreSQL port: write server/db/migrations/postgres/${f}`),
    ...postgres.filter((f) => !sqlite.includes(f)).map((f) => `server/db/migrations/postgres/${f} has no SQLite original: write server/db/migrations/${f}`),
  ];
}

export function loadMigrations(engine: Engine): Migration[] {
  const dir = engine === 'sqlite' ? SQLITE_MIGRATIONS_DIR : POSTGRES_MIGRATIONS_DIR;
  return migrationNames(engine).map((name) => ({ name, sql: fs.readFileSync(path.join(dir, name), 'utf8') }));
}
