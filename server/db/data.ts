/**
 * The data layer's interface: one async API over two engines (embedded SQLite, PostgreSQL).
 * The stores (server/db/<table group>.ts) receive a `Queryable` and write plain, portable SQL, the only
 * SQL of the server (docs/data-layer.md lists the rules and the stores);
 * the adapters (sqlite.ts, postgres.ts) translate placeholders, run transactions and migrations.
 */

export type Engine = 'sqlite' | 'postgres';

/** A value a statement binds: text, a number (ids, epoch-millisecond times, 0/1 flags) or NULL. */
export type SqlValue = string | number | null;

/** Values for `?` placeholders (an array, in order) or for `@name` placeholders (an object). */
export type SqlParams = readonly SqlValue[] | Readonly<Record<string, SqlValue>>;

export type Row = Record<string, unknown>;

export interface RunResult {
  /** Rows inserted, updated or deleted: a conditional update that won has changes === 1. */
  changes: number;
}

/** What a statement can run on: the database itself, or the `t` of a transaction. */
export interface Queryable {
  readonly engine: Engine;
  /** The first row, or undefined. Also for `INSERT/UPDATE/DELETE … RETURNING`. */
  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined>;
  /** Every row. */
  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]>;
  /** A statement without rows; `changes` counts the rows it touched. */
  run(sql: string, params?: SqlParams): Promise<RunResult>;
}

export interface TxOptions {
  /**
   * A key that the transactions of one account share (`lockKey('account', id)`). On PostgreSQL the
   * transaction takes a transaction-scoped advisory lock on it first and runs at READ COMMITTED: those
   * of one account queue behind each other instead of failing to serialize and running again (every
   * statement sees what the one before it committed). Only for a transaction whose decisions read rows
   * of that key alone (the account's counters, codes and tokens) or are conditional updates, and when
   * every other read-decide-write on those rows holds the same key. SQLite has one writer; it ignores it.
   */
  lock?: string;
}

/** The lock key of a transaction that decides for one account (`scope` names what identifies it: 'account' id, 'email'). */
export const lockKey = (scope: string, id: string | number): string => `${scope}:${id}`;

export interface Database extends Queryable {
  /** What it is connected to, without credentials ("SQLite data/app.sqlite", "PostgreSQL 15.8 at 127.0.0.1:5432/frontdoor"). */
  readonly description: string;
  /**
   * Runs fn in one serializable transaction: SQLite BEGIN IMMEDIATE, PostgreSQL SERIALIZABLE. Commits
   * when fn resolves, rolls back when it throws. Inside, use `t`, never the database, and await only
   * `t.*` calls (no hashing, HTTP or timers: on SQLite that is refused, because the one connection
   * would stay locked). On PostgreSQL fn runs again after a serialization failure or deadlock, so it
   * must have no effect besides its statements; when its tries run out it throws DatabaseBusyError
   * (answered 503 with Retry-After, errors.ts).
   */
  tx<T>(fn: (t: Queryable) => Promise<T>, options?: TxOptions): Promise<T>;
  /** Applies the migrations not applied yet, once even when several instances start together; returns their file names. */
  migrate(): Promise<string[]>;
  /** Resolves when the database answers within timeoutMs (readiness). */
  ping(timeoutMs?: number): Promise<void>;
  /** Names of the data tables (all but schema_migrations and server_secrets). */
  dataTables(): Promise<string[]>;
  /** Deletes every row of every data table, in one transaction (or in `t`'s). */
  wipe(t?: Queryable): Promise<void>;
  /** Closes the connection (or pool). */
  close(): Promise<void>;
}

/** The screen studio's tables (migrations 030, 042): the catalogue's history, not the tenant's data. */
export const STUDIO_TABLES: readonly string[] = ['studio_people', 'studio_changes', 'studio_change_events', 'studio_versions', 'studio_version_files'];

/**
 * Tables that wipe() keeps: the schema's history, the instances' shared secrets, and the studio's
 * history of screens/ and locales/ (POST /dev/reset restores the demo tenant, not the catalogue's files).
 */
export const KEPT_TABLES: readonly string[] = ['schema_migrations', 'server_secrets', ...STUDIO_TABLES];

/** A statement or its values broke a rule of the data layer (a programming error, never user input). */
export class DataLayerError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataLayerError';
  }
}

/** A UNIQUE or PRIMARY KEY violation (SQLite SQLITE_CONSTRAINT_UNIQUE/PRIMARYKEY, PostgreSQL 23505): two writers raced for one key. */
export function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === '23505' || code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY';
}

/**
 * A transaction kept failing to serialize (or deadlocking) until its tries ran out: the database is
 * too busy for this request now. Answered 503 with Retry-After (errors.ts), never a 500.
 */
export class DatabaseBusyError extends Error {
  readonly statusCode = 503;
  readonly retryAfterSeconds = 1;
  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`the transaction failed to serialize ${attempts} times`, { cause });
    this.name = 'DatabaseBusyError';
  }
}
