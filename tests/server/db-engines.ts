/**
 * Both engines of the data layer for tests: embedded SQLite always; PostgreSQL when DATABASE_URL
 * names a server (`npm test` starts one: scripts/postgres.ts). Each PostgreSQL test database is new
 * (CREATE DATABASE) and dropped afterwards, so test files running in parallel never meet.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Database } from '../../server/db/data';
import { openPostgres } from '../../server/db/postgres';
import { openSqlite } from '../../server/db/sqlite';

export const POSTGRES_URL = process.env.DATABASE_URL || undefined;
/** Set by `npm test` (scripts/test.ts): without a server the PostgreSQL half must fail, not skip. */
export const POSTGRES_REQUIRED = process.env.FRONTDOOR_REQUIRE_POSTGRES === '1';

export interface TestDatabase {
  /** A connection string (PostgreSQL) or file path (SQLite) of this database, for a second connection. */
  location: string;
  open(): Database;
  /** Drops the database (PostgreSQL) or removes the file (SQLite). */
  dispose(): Promise<void>;
}

function withDatabase(url: string, name: string): string {
  const u = new URL(url);
  u.pathname = `/${name}`;
  return u.toString();
}

/** A new, empty PostgreSQL database on the server of DATABASE_URL. */
export async function newPostgresDatabase(): Promise<TestDatabase> {
  if (!POSTGRES_URL) throw new Error('DATABASE_URL is not set');
  const name = `fd_test_${crypto.randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: POSTGRES_URL });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const location = withDatabase(POSTGRES_URL, name);
  return {
    location,
    open: () => openPostgres({ connectionString: location, poolSize: 5 }),
    async dispose() {
      const c = new pg.Client({ connectionString: POSTGRES_URL });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

/** A new SQLite file in a temporary folder (a file, not :memory:, so that a second connection sees it). */
export async function newSqliteDatabase(): Promise<TestDatabase> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-sqlite-'));
  const location = path.join(dir, 'test.sqlite');
  return {
    location,
    open: () => openSqlite(location),
    async dispose() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface EngineUnderTest {
  name: 'sqlite' | 'postgres';
  available: boolean;
  create(): Promise<TestDatabase>;
}

export const ENGINES: EngineUnderTest[] = [
  { name: 'sqlite', available: true, create: newSqliteDatabase },
  { name: 'postgres', available: POSTGRES_URL !== undefined, create: newPostgresDatabase },
];
