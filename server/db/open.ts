/**
 * Opens the data layer the configuration asks for: PostgreSQL when DATABASE_URL is set, else the
 * embedded SQLite file DB_PATH (':memory:' allowed). The caller runs migrate() (once per start).
 */
import type { Database } from './data.js';
import { openPostgres } from './postgres.js';
import { openSqlite } from './sqlite.js';

export type DatabaseSettings = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; poolSize?: number };

export function openDatabase(settings: DatabaseSettings, onIdleError?: (error: Error) => void): Database {
  if (settings.engine === 'postgres') {
    return openPostgres({
      connectionString: settings.url,
      ...(settings.poolSize !== undefined ? { poolSize: settings.poolSize } : {}),
      ...(onIdleError ? { onIdleError } : {}),
    });
  }
  return openSqlite(settings.path);
}

export type { Database, Queryable, RunResult, SqlParams, SqlValue, Engine } from './data.js';
