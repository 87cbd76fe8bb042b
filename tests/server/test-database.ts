/**
 * Where the server tests keep their data, on the engine of the run. The vitest project `app` runs them
 * on embedded SQLite; the project `postgres` (vitest.config.ts, there when DATABASE_URL is set, as in
 * `npm test`) runs the same files again with FRONTDOOR_TEST_ENGINE=postgres. There each test file gets
 * its own PostgreSQL database (created on first use, dropped after the file: tests/server/postgres-setup.ts)
 * and each app its own schema in it, so every app starts as empty as an in-memory SQLite does and
 * files running in parallel never meet.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { BuildAppOptions } from '../../server/app';
import type { Database } from '../../server/db/data';
import { openPostgres } from '../../server/db/postgres';
import { openSqlite } from '../../server/db/sqlite';

export type TestEngine = 'sqlite' | 'postgres';
export const TEST_ENGINE: TestEngine = process.env.FRONTDOOR_TEST_ENGINE === 'postgres' ? 'postgres' : 'sqlite';

export interface TestStore {
  /** The buildApp options that put an app on this store. */
  options: Pick<BuildAppOptions, 'dbPath' | 'databaseUrl' | 'databasePoolSize'>;
  /** Another connection to it (a second instance, or a look from outside the server); migrated by whoever opened the store first. */
  open(): Database;
  /** Removes it (a PostgreSQL schema goes with its file's database anyway). */
  dispose(): Promise<void>;
}

let fileDatabase: Promise<string> | undefined;

function serverUrl(): string {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('FRONTDOOR_TEST_ENGINE=postgres needs DATABASE_URL (npm test, or `npx tsx scripts/postgres.ts npx vitest run …`)');
  return url;
}

function inDatabase(url: string, name: string, schema?: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  // The schema first, then public, where the file's database keeps the citext extension the tables use.
  if (schema) u.searchParams.set('options', `-c search_path=${schema},public`);
  return u.toString();
}

async function admin<T>(url: string, fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** This test file's PostgreSQL database (created once, with citext in public for every schema). */
function postgresFileDatabase(): Promise<string> {
  fileDatabase ??= (async () => {
    const name = `fd_test_${crypto.randomBytes(6).toString('hex')}`;
    await admin(serverUrl(), (c) => c.query(`CREATE DATABASE ${name}`));
    await admin(inDatabase(serverUrl(), name), (c) => c.query('CREATE EXTENSION IF NOT EXISTS citext SCHEMA public'));
    return name;
  })();
  return fileDatabase;
}

/** Drops this file's PostgreSQL database, if it made one (connections still open are ended). */
export async function disposeFileDatabase(): Promise<void> {
  if (!fileDatabase) return;
  const name = await fileDatabase.catch(() => undefined);
  fileDatabase = undefined;
  if (name) await admin(serverUrl(), (c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`));
}

/**
 * A new, empty store on the engine of the run: a schema of this file's PostgreSQL database, or an
 * in-memory SQLite (a file in a temporary folder when `shared`: two apps or a second connection see it).
 */
export async function newStore(opts: { shared?: boolean } = {}): Promise<TestStore> {
  if (TEST_ENGINE === 'postgres') {
    const database = await postgresFileDatabase();
    const schema = `app_${crypto.randomBytes(5).toString('hex')}`;
    const url = inDatabase(serverUrl(), database, schema);
    await admin(url, (c) => c.query(`CREATE SCHEMA ${schema}`));
    return {
      options: { databaseUrl: url, databasePoolSize: 4 },
      open: () => openPostgres({ connectionString: url, poolSize: 4 }),
      dispose: () => admin(url, (c) => c.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)).then(() => undefined),
    };
  }
  if (!opts.shared) {
    return {
      options: { dbPath: ':memory:' },
      open: () => {
        throw new Error('an in-memory SQLite has one connection: ask newStore({ shared: true })');
      },
      dispose: async () => undefined,
    };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-store-'));
  const file = path.join(dir, 'app.sqlite');
  return {
    options: { dbPath: file },
    open: () => openSqlite(file),
    dispose: async () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A migrated database on the run's engine for tests that use the data layer without an app (the
 * delivery queue, Duo's state, the SSO seed): an in-memory SQLite, or a schema of this file's
 * PostgreSQL database in the 'postgres' project. `dispose` closes it and drops what it made.
 */
export type RunDatabase = Database & { dispose(): Promise<void> };

export async function openRunDatabase(): Promise<RunDatabase> {
  if (TEST_ENGINE !== 'postgres') {
    const db = openSqlite(':memory:');
    await db.migrate();
    return Object.assign(db, { dispose: () => db.close() });
  }
  const store = await newStore();
  const db = store.open();
  await db.migrate();
  return Object.assign(db, {
    async dispose() {
      await db.close();
      await store.dispose();
    },
  });
}
