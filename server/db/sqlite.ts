/**
 * The embedded SQLite adapter (better-sqlite3): the data layer's async interface over one
 * synchronous connection. Statements run at once and return settled promises, so a transaction
 * whose callback awaits only `t.*` calls never gives the event loop away: nothing else can run
 * inside it. Transactions take turns through a queue; a callback that awaits anything else (a
 * hash, a fetch, a timer) is rolled back with an error, because the connection would stay locked.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type BetterSqlite3 from 'better-sqlite3';
import { DataLayerError, KEPT_TABLES, type Database, type Queryable, type Row, type RunResult, type SqlParams } from './data.js';
import { BUSY_TIMEOUT_MS, openSqliteConnection, type Db } from './index.js';
import { applyMigrations, sqliteSchemaDb } from './migrations.js';
import { assertPortable, oneLine, orderedValues, parseSql, type ParsedSql } from './sql.js';

/** Opens (creating the directory) the SQLite file or ':memory:'; migrate() applies the migrations. The connection stays inside. */
export function openSqlite(dbPath: string): Database {
  return new SqliteDatabase(openSqliteConnection(dbPath), dbPath);
}

/** How long an instance waits for another one's migrations (a fresh database: all of them). */
const MIGRATION_LOCK_WAIT_MS = 60_000;

interface Prepared {
  parsed: ParsedSql;
  stmt: BetterSqlite3.Statement;
}

class SqliteDatabase implements Database {
  readonly engine = 'sqlite' as const;
  readonly description: string;
  private readonly statements = new Map<string, Prepared>();
  /** The transaction running now, if any (its callback's async context carries it too). */
  private active: Promise<unknown> | null = null;
  private readonly inTx = new AsyncLocalStorage<boolean>();
  private readonly txView: Queryable;

  constructor(
    private readonly db: Db,
    label: string,
  ) {
    this.description = `SQLite ${label}`;
    this.txView = {
      engine: 'sqlite',
      get: async <T>(sql: string, params?: SqlParams) => this.exec<T | undefined>('get', sql, params),
      all: async <T>(sql: string, params?: SqlParams) => this.exec<T[]>('all', sql, params),
      run: async (sql: string, params?: SqlParams) => this.exec<RunResult>('run', sql, params),
    };
  }

  private prepared(sql: string): Prepared {
    let p = this.statements.get(sql);
    if (!p) {
      assertPortable(sql);
      p = { parsed: parseSql(sql), stmt: this.db.prepare(sql) };
      this.statements.set(sql, p);
    }
    return p;
  }

  private exec<T>(mode: 'get' | 'all' | 'run', sql: string, params: SqlParams | undefined): T {
    const { parsed, stmt } = this.prepared(sql);
    const values = orderedValues(parsed, params, sql);
    // better-sqlite3 binds @name from an object; ? from arguments.
    const args: unknown[] = parsed.names.length > 0 ? [Object.fromEntries(parsed.names.map((name, k) => [name, values[k]]))] : values;
    if (mode === 'run') {
      const res = stmt.run(...args);
      return { changes: res.changes } as T;
    }
    if (!stmt.reader) throw new DataLayerError(`${mode}() needs a statement that returns rows (SELECT or … RETURNING); use run(): ${oneLine(sql)}`);
    return (mode === 'get' ? stmt.get(...args) : stmt.all(...args)) as T;
  }

  /** Statements outside a transaction wait for a running one (they would otherwise join it). */
  private async outside<T>(run: () => T): Promise<T> {
    if (this.inTx.getStore()) throw new DataLayerError('inside tx(), use its t for statements, not the database');
    while (this.active) await this.active.catch(() => undefined);
    return run();
  }

  get<T = Row>(sql: string, params?: SqlParams): Promise<T | undefined> {
    return this.outside(() => this.exec<T | undefined>('get', sql, params));
  }

  all<T = Row>(sql: string, params?: SqlParams): Promise<T[]> {
    return this.outside(() => this.exec<T[]>('all', sql, params));
  }

  run(sql: string, params?: SqlParams): Promise<RunResult> {
    return this.outside(() => this.exec<RunResult>('run', sql, params));
  }

  /** TxOptions.lock needs nothing here: BEGIN IMMEDIATE already makes every transaction wait for the one before it. */
  async tx<T>(fn: (t: Queryable) => Promise<T>): Promise<T> {
    if (this.inTx.getStore()) throw new DataLayerError('tx() inside tx(): use the outer t (transactions do not nest)');
    return this.exclusive(() => this.runTx(fn));
  }

  /** Runs work when no transaction runs, and holds off every other statement until it is done. */
  private async exclusive<T>(work: () => Promise<T>): Promise<T> {
    while (this.active) await this.active.catch(() => undefined);
    const run = work();
    this.active = run;
    try {
      return await run;
    } finally {
      if (this.active === run) this.active = null;
    }
  }

  private async runTx<T>(fn: (t: Queryable) => Promise<T>): Promise<T> {
    this.db.exec('BEGIN IMMEDIATE');
    // Set when the event loop turns during the callback: it awaited something that is not a statement.
    let yielded = false;
    const probe = setImmediate(() => {
      yielded = true;
    });
    try {
      const result = await this.inTx.run(true, () => fn(this.txView));
      if (yielded) {
        throw new DataLayerError(
          'a transaction awaited something other than its statements (hashing, HTTP, a timer): do that before tx() and pass the result in',
        );
      }
      this.db.exec('COMMIT');
      return result;
    } catch (error) {
      if (this.db.inTransaction) this.db.exec('ROLLBACK');
      throw error;
    } finally {
      clearImmediate(probe);
    }
  }

  /**
   * All of it in one BEGIN IMMEDIATE transaction: two instances starting together on a fresh file take
   * turns (the second waits for the write lock, then finds everything applied) instead of both applying 001.
   */
  async migrate(): Promise<string[]> {
    if (this.inTx.getStore()) throw new DataLayerError('migrate() inside tx()');
    return this.exclusive(async () => {
      await this.beginImmediate();
      try {
        const done = await applyMigrations(sqliteSchemaDb(this.db), 'sqlite');
        this.db.exec('COMMIT');
        return done;
      } catch (error) {
        if (this.db.inTransaction) this.db.exec('ROLLBACK');
        throw error;
      }
    });
  }

  /**
   * BEGIN IMMEDIATE without blocking the process: migrations are async (Kysely), so the instance holding
   * the write lock may be another connection of this same process, which a synchronous busy wait would
   * stop from finishing. Tries again every 25 ms, for up to MIGRATION_LOCK_WAIT_MS.
   */
  private async beginImmediate(): Promise<void> {
    const giveUpAt = Date.now() + MIGRATION_LOCK_WAIT_MS;
    this.db.pragma('busy_timeout = 0');
    try {
      for (;;) {
        try {
          this.db.exec('BEGIN IMMEDIATE');
          return;
        } catch (error) {
          if ((error as { code?: unknown }).code !== 'SQLITE_BUSY' || Date.now() > giveUpAt) throw error;
          await new Promise((resolve) => setTimeout(resolve, 25));
        }
      }
    } finally {
      this.db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    }
  }

  async ping(): Promise<void> {
    await this.outside(() => this.db.prepare('SELECT 1 AS ok').get());
  }

  async dataTables(): Promise<string[]> {
    return this.outside(() => this.tableNames());
  }

  private tableNames(): string[] {
    return (this.db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'").all() as { name: string }[])
      .map((r) => r.name)
      .filter((name) => !KEPT_TABLES.includes(name));
  }

  async wipe(t?: Queryable): Promise<void> {
    const work = () => {
      // Foreign keys are checked at commit, when every table is empty: the order does not matter.
      this.db.pragma('defer_foreign_keys = ON');
      for (const name of this.tableNames()) this.db.exec(`DELETE FROM "${name}"`);
    };
    if (t) {
      if (t !== this.txView || !this.db.inTransaction) throw new DataLayerError('wipe(t) takes the t of a running tx() of this database');
      work();
      return;
    }
    await this.tx(async () => work());
  }

  async close(): Promise<void> {
    while (this.active) await this.active.catch(() => undefined);
    if (this.db.open) this.db.close();
  }
}
