/**
 * The PostgreSQL adapter (node-postgres): a connection pool behind the data layer's interface.
 * `?` / `@name` become `$n`; BIGINT and NUMERIC come back as numbers and booleans as 1/0, as on
 * SQLite; transactions are SERIALIZABLE and retried on a serialization failure or deadlock (those of
 * one account, `tx(fn, { lock })`, queue on an advisory lock at READ COMMITTED instead);
 * migrations run under a session advisory lock, so instances starting together apply each once.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import pg from 'pg';
import {
  DatabaseBusyError,
  DataLayerError,
  KEPT_TABLES,
  type Database,
  type Queryable,
  type Row,
  type RunResult,
  type SqlParams,
  type TxOptions,
} from './data.js';
import { applyMigrations, postgresSchemaDb } from './migrations.js';
import { assertPortable, oneLine, orderedValues, parseSql, type ParsedSql } from './sql.js';

export interface PostgresOptions {
  /** postgres://user:password@host:port/database?sslmode=… */
  connectionString: string;
  /** Connections in the pool (default 10). */
  poolSize?: number;
  /** Tries of a transaction that keeps failing to serialize (default 20: under heavy load a try takes long and collides often). */
  maxTxAttempts?: number;
  /** Called with errors of idle connections (a restarted server); default: ignored, the pool reconnects. */
  onIdleError?: (error: Error) => void;
}

/** Key of the advisory lock held while migrating (any fixed 64-bit number; this one spells "frontdoor"). */
export const MIGRATION_LOCK_KEY = '7310293415237660018';

/** SQLSTATEs after which a transaction is run again: serialization_failure, deadlock_detected. */
const RETRYABLE = new Set(['40001', '40P01']);

const types = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    // int8 (count(*), BIGINT ids and times) and numeric (sum()) as numbers; bool as 1/0 like SQLite.
    if (oid === 20 || oid === 1700) return (value: string) => toNumber(value);
    if (oid === 16) return (value: string) => (value === 't' ? 1 : 0);
    return pg.types.getTypeParser(oid, format as 'text');
  },
} as pg.CustomTypesConfig;

function toNumber(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n) && Number.isInteger(n)) throw new DataLayerError(`the value ${value} does not fit a JavaScript number`);
  return n;
}

export function openPostgres(options: PostgresOptions): Database {
  return new PostgresDatabase(options);
}

/** host:port/database of a connection string, never its credentials. */
export function describeUrl(connectionString: string): string {
  try {
    const url = new URL(connectionString);
    const host = url.hostname || url.searchParams.get('host') || 'localhost';
    return `${host}${url.port ? `:${url.port}` : ''}${url.pathname || '/'}`;
  } catch {
    return '(unparsable DATABASE_URL)';
  }
}

/**
 * How long to wait before running a transaction again: full jitter over a window that starts at the
 * failed try's own duration and doubles with each try (at most 1 s). A fixed few milliseconds is
 * shorter than a transaction on a busy machine, so the same transactions collided again until the tries
 * ran out (a sign-in answered 500 under 16 concurrent sign-ins of different users: PostgreSQL's
 * serializable isolation locks index pages, not only rows). The competitors commit meanwhile.
 */
export const retryDelayMs = (attempt: number, triedMs: number): number => Math.random() * Math.min(1000, Math.max(5, triedMs) * 2 ** Math.min(attempt - 1, 8));

type Client = pg.PoolClient;

class PostgresDatabase implements Database {
  readonly engine = 'postgres' as const;
  description: string;
  private readonly pool: pg.Pool;
  private readonly parsed = new Map<string, ParsedSql>();
  private readonly inTx = new AsyncLocalStorage<boolean>();
  private readonly maxTxAttempts: number;

  constructor(options: PostgresOptions) {
    this.pool = new pg.Pool({
      connectionString: options.connectionString,
      max: options.poolSize ?? 10,
      connectionTimeoutMillis: 10_000,
      idleTimeoutMillis: 30_000,
      types,
    });
    // Without a listener an idle connection's error (the server restarted) would end the process.
    this.pool.on('error', options.onIdleError ?? (() => undefined));
    this.maxTxAttempts = options.maxTxAttempts ?? 20;
    this.description = `PostgreSQL at ${describeUrl(options.connectionString)}`;
  }

  private prepare(sql: string): ParsedSql {
    let p = this.parsed.get(sql);
    if (!p) {
      assertPortable(sql);
      p = parseSql(sql);
      this.parsed.set(sql, p);
    }
    return p;
  }

  private async query(client: pg.Pool | Client, sql: string, params: SqlParams | undefined): Promise<pg.QueryResult> {
    const p = this.prepare(sql);
    const values = orderedValues(p, params, sql);
    return client.query({ text: p.numbered, values });
  }

  private view(client: pg.Pool | Client): Queryable {
    return {
      engine: 'postgres',
      get: async <T>(sql: string, params?: SqlParams) => {
        const res = await this.query(client, sql, params);
        if (!res.fields?.length) throw new DataLayerError(`get() needs a statement that returns rows (SELECT or … RETURNING); use run(): ${oneLine(sql)}`);
        return res.rows[0] as T | undefined;
      },
      all: async <T>(sql: string, params?: SqlParams) => {
        const res = await this.query(client, sql, params);
        if (!res.fields?.length) throw new DataLayerError(`all() needs a statement that returns rows (SELECT or … RETURNING); use run(): ${oneLine(sql)}`);
        return res.rows as T[];
      },
      run: async (sql: string, params?: SqlParams) => {
        const res = await this.query(client, sql, params);
        return { changes: res.rowCount ?? 0 };
      },
    };
  }

  private outside(): Queryable {
    if (this.inTx.getStore()) throw new DataLayerError('inside tx(), use its t for statements, not the database');
    return this.view(this.pool);
  }

  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return Promise.resolve().then(() => this.outside().get<T>(sql, params));
  }

  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    return Promise.resolve().then(() => this.outside().all<T>(sql, params));
  }

  run(sql: string, params?: SqlParams): Promise<RunResult> {
    return Promise.resolve().then(() => this.outside().run(sql, params));
  }

  async tx<T>(fn: (t: Queryable) => Promise<T>, options: TxOptions = {}): Promise<T> {
    if (this.inTx.getStore()) throw new DataLayerError('tx() inside tx(): use the outer t (transactions do not nest)');
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      for (let attempt = 1; ; attempt++) {
        const started = Date.now();
        try {
          // READ COMMITTED under a lock: each later statement sees what the lock's previous holder
          // committed (the snapshot of REPEATABLE READ or SERIALIZABLE would be taken before the wait).
          await client.query(options.lock === undefined ? 'BEGIN ISOLATION LEVEL SERIALIZABLE' : 'BEGIN ISOLATION LEVEL READ COMMITTED');
        } catch (error) {
          broken = error as Error; // the connection is unusable: the pool drops it
          throw error;
        }
        try {
          if (options.lock !== undefined) await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [options.lock]);
          const result = await this.inTx.run(true, () => fn(this.view(client)));
          await client.query('COMMIT');
          return result;
        } catch (error) {
          try {
            await client.query('ROLLBACK');
          } catch (rollbackError) {
            broken = rollbackError as Error;
            throw error;
          }
          const code = (error as { code?: string }).code;
          if (!code || !RETRYABLE.has(code)) throw error;
          if (attempt >= this.maxTxAttempts) throw new DatabaseBusyError(attempt, error);
          await new Promise((resolve) => setTimeout(resolve, retryDelayMs(attempt, Date.now() - started)));
        }
      }
    } finally {
      client.release(broken);
    }
  }

  async migrate(): Promise<string[]> {
    const client = await this.pool.connect();
    try {
      // A session lock: a second instance waits here until the first has committed its migrations.
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK_KEY]);
      try {
        await client.query('BEGIN');
        try {
          const done = await applyMigrations(postgresSchemaDb(client), 'postgres');
          await client.query('COMMIT');
          return done;
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      } finally {
        await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK_KEY]);
      }
    } finally {
      client.release();
    }
  }

  async ping(timeoutMs = 2000): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`PostgreSQL did not answer within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([this.pool.query('SELECT 1 AS ok'), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  private async tableNames(client: pg.Pool | Client): Promise<string[]> {
    const res = await client.query<{ name: string }>(
      "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE' ORDER BY table_name",
    );
    return res.rows.map((r) => r.name).filter((name) => !KEPT_TABLES.includes(name));
  }

  async dataTables(): Promise<string[]> {
    if (this.inTx.getStore()) throw new DataLayerError('inside tx(), use its t for statements, not the database');
    return this.tableNames(this.pool);
  }

  async wipe(t?: Queryable): Promise<void> {
    const work = async (q: Queryable) => {
      const names = await q.all<{ name: string }>(
        "SELECT table_name AS name FROM information_schema.tables WHERE table_schema = current_schema() AND table_type = 'BASE TABLE'",
      );
      const tables = names.map((r) => r.name).filter((name) => !KEPT_TABLES.includes(name));
      // One statement: foreign keys between the emptied tables need no order; ids start again at 1.
      if (tables.length) await q.run(`TRUNCATE ${tables.map((name) => `"${name}"`).join(', ')} RESTART IDENTITY`);
    };
    if (t) return work(t);
    await this.tx(work);
  }

  async close(): Promise<void> {
    await this.pool.end();
  }
}
