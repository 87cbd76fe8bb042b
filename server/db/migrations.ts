/**
 * The migrations of both engines, from one source (migrations/index.ts, each written with Kysely's
 * schema builder: schema.ts), and the runner the adapters call inside their migration transaction. It
 * keeps the bookkeeping of every database migrated so far: table schema_migrations, one row per
 * migration name applied, each applied once, in list order.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { Kysely, PostgresDialect, SqliteDialect, sql, type PostgresPoolClient } from 'kysely';
import type pg from 'pg';
import type { Engine } from './data.js';
import { MIGRATIONS } from './migrations/index.js';
import { migrationContext, type SchemaDb } from './schema.js';

/** The names of this release's migrations, in the order they run. */
export function migrationNames(): string[] {
  return MIGRATIONS.map((m) => m.name);
}

/**
 * Applies, in `db`'s connection and inside the caller's transaction, the migrations schema_migrations
 * does not list; returns their names.
 */
export async function applyMigrations(db: SchemaDb, engine: Engine, now: () => number = Date.now): Promise<string[]> {
  const context = migrationContext(db, engine);
  await db.schema
    .createTable('schema_migrations')
    .ifNotExists()
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('applied_at', context.big, (c) => c.notNull())
    .execute();
  const applied = new Set((await sql<{ name: string }>`SELECT name FROM schema_migrations`.execute(db)).rows.map((r) => r.name));
  const done: string[] = [];
  for (const migration of MIGRATIONS) {
    if (applied.has(migration.name)) continue;
    await migration.up(context);
    await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${migration.name}, ${now()})`.execute(db);
    done.push(migration.name);
  }
  return done;
}

/**
 * Kysely on the SQLite adapter's own connection, which runs the statements at once. Never destroyed:
 * that would close the connection.
 */
export function sqliteSchemaDb(connection: BetterSqlite3.Database): SchemaDb {
  return new Kysely<unknown>({ dialect: new SqliteDialect({ database: connection }) });
}

/** Kysely on one PostgreSQL client: the one that holds the migration lock and its transaction (released by its owner, not by Kysely). */
export function postgresSchemaDb(client: pg.PoolClient): SchemaDb {
  const connection: PostgresPoolClient = {
    query: client.query.bind(client),
    release: () => undefined,
  };
  return new Kysely<unknown>({ dialect: new PostgresDialect({ pool: { connect: async () => connection, end: async () => undefined } }) });
}
