/**
 * The data layer's contract, one suite run against both engines (SQLite always; PostgreSQL with
 * DATABASE_URL, which `npm test` provides from a real server it starts). What the services will rely
 * on: placeholders, types, RETURNING, upserts, conditional updates, serializable transactions,
 * case-insensitive emails, the portability guard, migrations applied once under concurrency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DatabaseBusyError,
  DataLayerError,
  isUniqueViolation,
  KEPT_TABLES,
  lockKey,
  type Database,
  type Queryable,
  type TxOptions,
} from '../../server/db/data';
import { openPostgres } from '../../server/db/postgres';
import { migrationNames } from '../../server/db/migrations';
import { ENGINES, POSTGRES_REQUIRED, POSTGRES_URL, type TestDatabase } from './db-engines';
import { narrowTimesAndIds, postgresShape, sqliteShape } from './schema-shape';

const T0 = 1_767_225_600_000; // 2026-01-01 in epoch ms: needs BIGINT on PostgreSQL.

async function addUser(q: Queryable, email: string, extra: { org?: number } = {}): Promise<number> {
  const row = await q.get<{ id: number }>(
    `INSERT INTO users (uid, email, user_type, organization_id, created_at, updated_at) VALUES (?, ?, 'TECHNICIAN', ?, ?, ?) RETURNING id`,
    [`uid-${email}`, email, extra.org ?? null, T0, T0],
  );
  if (!row) throw new Error('no id returned');
  return row.id;
}

const HIT = `INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES (@scope, @key, @now, 1, CAST(@now AS BIGINT) + @win)
  ON CONFLICT (scope, key) DO UPDATE SET
    count = CASE WHEN counters.window_start + @win <= @now THEN 1 ELSE counters.count + 1 END,
    window_start = CASE WHEN counters.window_start + @win <= @now THEN @now ELSE counters.window_start END,
    expires_at = CASE WHEN counters.window_start + @win <= @now THEN CAST(@now AS BIGINT) + @win ELSE counters.window_start + @win END
  RETURNING count, window_start`;

it('PostgreSQL is there when npm test asks for it (the PostgreSQL half never skips silently)', () => {
  if (POSTGRES_REQUIRED) expect(POSTGRES_URL, 'scripts/test.ts starts PostgreSQL and sets DATABASE_URL').toBeTruthy();
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`data layer on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
    });
    afterAll(async () => {
      await db?.close();
      await target?.dispose();
    });
    beforeEach(async () => {
      await db.wipe();
    });

    it('names its engine and describes its target without credentials', () => {
      expect(db.engine).toBe(engine.name);
      expect(db.description).toMatch(engine.name === 'sqlite' ? /^SQLite / : /^PostgreSQL at 127\.0\.0\.1:\d+\/fd_test_/);
      expect(db.description).not.toMatch(/password|@/);
    });

    it('binds ? and @name placeholders, ignores ? inside literals, and returns undefined / [] for no rows', async () => {
      const id = await addUser(db, 'a@demo.test');
      expect(await db.get('SELECT email FROM users WHERE id = ?', [id])).toEqual({ email: 'a@demo.test' });
      expect(await db.get(`SELECT '?' AS q, email FROM users WHERE id = @id AND email = @email`, { id, email: 'a@demo.test' })).toEqual({
        q: '?',
        email: 'a@demo.test',
      });
      expect(await db.get('SELECT email FROM users WHERE id = ?', [id + 1000])).toBeUndefined();
      expect(await db.all('SELECT email FROM users WHERE id > ?', [id])).toEqual([]);
    });

    it('returns ids, epoch-millisecond times, counts and comparisons as numbers, as SQLite does', async () => {
      const a = await addUser(db, 'a@demo.test');
      const b = await addUser(db, 'b@demo.test');
      expect(typeof a).toBe('number');
      expect(b).toBeGreaterThan(a);
      const row = await db.get<Record<string, unknown>>(
        'SELECT count(*) AS n, max(created_at) AS latest, sum(created_at) AS total, CASE WHEN count(*) = 2 THEN 1 ELSE 0 END AS two, min(id) = ? AS first_is_a FROM users',
        [a],
      );
      expect(row).toEqual({ n: 2, latest: T0, total: 2 * T0, two: 1, first_is_a: 1 });
    });

    it('run() counts the rows it touched; a conditional update wins once among concurrent tries', async () => {
      const user = await addUser(db, 'a@demo.test');
      await db.run('INSERT INTO verification_codes (code_hash, user_id, purpose, created_at, expires_at) VALUES (?, ?, ?, ?, ?)', [
        'h1',
        user,
        'RESET_PASSWORD',
        T0,
        T0 + 1000,
      ]);
      const tries = await Promise.all(
        Array.from({ length: 12 }, () => db.run('UPDATE verification_codes SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [T0 + 1, 'h1'])),
      );
      expect(tries.map((r) => r.changes).sort()).toEqual([...Array(11).fill(0), 1]);
      expect((await db.run('DELETE FROM verification_codes WHERE code_hash = ?', ['h1'])).changes).toBe(1);
    });

    it('upserts with ON CONFLICT: DO NOTHING reports 0 changes, DO UPDATE counts concurrent hits exactly', async () => {
      expect(
        (await db.run('INSERT INTO used_tokens (jti, purpose, expires_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING', ['j1', 'bot-check', T0])).changes,
      ).toBe(1);
      expect(
        (await db.run('INSERT INTO used_tokens (jti, purpose, expires_at) VALUES (?, ?, ?) ON CONFLICT (jti) DO NOTHING', ['j1', 'bot-check', T0])).changes,
      ).toBe(0);
      const hits = await Promise.all(
        Array.from({ length: 25 }, () => db.get<{ count: number }>(HIT, { scope: 'login', key: 'a@demo.test', now: T0, win: 60_000 })),
      );
      expect(hits.map((h) => h?.count).sort((x, y) => (x ?? 0) - (y ?? 0))).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
      // The window ended: the next hit starts a new one at 1.
      expect(await db.get(HIT, { scope: 'login', key: 'a@demo.test', now: T0 + 60_000, win: 60_000 })).toEqual({ count: 1, window_start: T0 + 60_000 });
      await db.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
        'k',
        'v1',
        T0,
      ]);
      await db.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value', [
        'k',
        'v2',
        T0,
      ]);
      expect(await db.all('SELECT name, value FROM server_secrets WHERE name = ?', ['k'])).toEqual([{ name: 'k', value: 'v2' }]);
    });

    it('compares emails and branded host names case-insensitively, and reports a duplicate as a unique violation', async () => {
      await addUser(db, 'Mixed.Case@Demo.test');
      expect(await db.get('SELECT email FROM users WHERE email = ?', ['mixed.case@demo.TEST'])).toEqual({ email: 'Mixed.Case@Demo.test' });
      const duplicate = await addUser(db, 'mixed.case@demo.test').catch((error: unknown) => error);
      expect(isUniqueViolation(duplicate), String(duplicate)).toBe(true);
      await db.run('INSERT INTO branding (hostname, is_enabled) VALUES (?, 1)', ['Signin.Example.COM']);
      expect(await db.get('SELECT hostname FROM branding WHERE hostname = ? AND is_enabled = 1', ['signin.example.com'])).toEqual({
        hostname: 'Signin.Example.COM',
      });
      expect(isUniqueViolation(new Error('other'))).toBe(false);
    });

    it('tx() commits what its callback did and returns its value; a throw rolls everything back', async () => {
      const id = await db.tx(async (t) => {
        const user = await addUser(t, 'a@demo.test');
        await t.run('INSERT INTO sessions (token_hash, user_id, created_at, expires_at, last_seen_at) VALUES (?, ?, ?, ?, ?)', ['s1', user, T0, T0 + 1, T0]);
        return user;
      });
      expect(await db.get('SELECT user_id FROM sessions WHERE token_hash = ?', ['s1'])).toEqual({ user_id: id });
      await expect(
        db.tx(async (t) => {
          await addUser(t, 'b@demo.test');
          throw new Error('changed my mind');
        }),
      ).rejects.toThrow('changed my mind');
      expect(await db.get('SELECT id FROM users WHERE email = ?', ['b@demo.test'])).toBeUndefined();
    });

    it('serializes read-decide-write transactions: 20 concurrent "take one if fewer than 5" take exactly 5', async () => {
      const take = () =>
        db.tx(async (t) => {
          const row = await t.get<{ count: number }>('SELECT count FROM counters WHERE scope = ? AND key = ?', ['quota', 'k']);
          const count = row?.count ?? 0;
          if (count >= 5) return false;
          await t.run(
            'INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET count = excluded.count',
            ['quota', 'k', T0, count + 1, T0 + 1],
          );
          return true;
        });
      const results = await Promise.all(Array.from({ length: 20 }, take));
      expect(results.filter(Boolean)).toHaveLength(5);
      expect(await db.get('SELECT count FROM counters WHERE scope = ?', ['quota'])).toEqual({ count: 5 });
    });

    it('refuses the database inside its own transaction, and nested transactions', async () => {
      await expect(db.tx(async () => db.get('SELECT 1 AS one'))).rejects.toThrow(DataLayerError);
      await expect(db.tx(async () => db.tx(async () => 1))).rejects.toThrow(/do not nest/);
      // Control: the same statement through t works.
      expect(await db.tx(async (t) => t.get('SELECT 1 AS one'))).toEqual({ one: 1 });
    });

    it('refuses non-portable SQL and bad values the same way on both engines', async () => {
      const refused: [string, unknown[]][] = [
        ['INSERT OR IGNORE INTO used_tokens (jti, purpose, expires_at) VALUES (?, ?, ?)', ['j', 'p', 1]],
        ['UPDATE counters SET count = MAX(count - 1, 0) WHERE scope = ?', ['s']],
        ['SELECT IFNULL(phone, ?) AS phone FROM users', ['x']],
        ['SELECT id AS userId FROM users WHERE id = ?', [1]],
        ["SELECT datetime('now') AS t", []],
        ['SELECT id::text AS id FROM users', []],
        ['SELECT ? + ? AS sum', [1, 2]],
      ];
      for (const [sql, values] of refused) await expect(db.all(sql, values as never), sql).rejects.toThrow(/not portable/);
      await expect(db.get('SELECT ? AS a, ? AS b', [1])).rejects.toThrow(/2 placeholder\(s\) but 1 value/);
      await expect(db.get('SELECT ? AS a', [true as never])).rejects.toThrow(/bind a string, a number or null/);
      await expect(db.get('SELECT ? AS a', [undefined as never])).rejects.toThrow(/undefined/);
      await expect(db.get('SELECT @a AS a', {})).rejects.toThrow(/no value for @a/);
      await expect(db.get('DELETE FROM outbox WHERE id = ?', [1])).rejects.toThrow(/use run\(\)/);
      // Controls: the portable spellings pass.
      expect(await db.get("SELECT COALESCE(NULL, ?) AS phone, CASE WHEN 3 > 0 THEN 3 ELSE 0 END AS n, CAST(7 AS TEXT) AS s, 'IFNULL(' AS lit", ['x'])).toEqual({
        phone: 'x',
        n: 3,
        s: '7',
        lit: 'IFNULL(',
      });
    });

    it('wipe() empties every data table but keeps the migration history and shared secrets; wipe(t) rolls back with its transaction', async () => {
      const user = await addUser(db, 'a@demo.test');
      await db.run('INSERT INTO mfa_enrolments (user_id, type, position, created_at) VALUES (?, ?, ?, ?)', [user, 'TOTP', 0, T0]);
      await db.run('INSERT INTO server_secrets (name, value, created_at) VALUES (?, ?, ?)', ['kept', 'v', T0]);
      await expect(
        db.tx(async (t) => {
          await db.wipe(t);
          expect(await t.get('SELECT count(*) AS n FROM users')).toEqual({ n: 0 });
          throw new Error('undo');
        }),
      ).rejects.toThrow('undo');
      expect(await db.get('SELECT count(*) AS n FROM users')).toEqual({ n: 1 });
      await db.wipe();
      expect(await db.get('SELECT count(*) AS n FROM users')).toEqual({ n: 0 });
      expect(await db.get('SELECT count(*) AS n FROM mfa_enrolments')).toEqual({ n: 0 });
      expect(await db.get('SELECT value FROM server_secrets WHERE name = ?', ['kept'])).toEqual({ value: 'v' });
      const tables = await db.dataTables();
      expect(tables).toContain('users');
      expect(tables).not.toContain('schema_migrations');
      expect(tables).not.toContain('server_secrets');
      expect(await db.get('SELECT count(*) AS n FROM schema_migrations')).toEqual({ n: migrationNames().length });
    });

    it('answers ping() while open and refuses once closed', async () => {
      await expect(db.ping()).resolves.toBeUndefined();
      const other = target.open();
      await other.ping();
      await other.close();
      await expect(other.ping()).rejects.toThrow();
    });
  });

  describe.skipIf(!engine.available)(`migrations on ${engine.name}`, () => {
    let target: TestDatabase | undefined;
    afterEach(async () => {
      await target?.dispose();
      target = undefined;
    });

    it('four instances migrating one fresh database at once apply each migration exactly once', async () => {
      target = await engine.create();
      const instances = Array.from({ length: 4 }, () => (target as TestDatabase).open());
      try {
        const applied = await Promise.all(instances.map((d) => d.migrate()));
        expect(applied.flat().sort()).toEqual(migrationNames());
        expect(applied.filter((names) => names.length > 0)).toHaveLength(1);
        const first = instances[0] as Database;
        expect(await first.all('SELECT name FROM schema_migrations ORDER BY name')).toEqual(migrationNames().map((name) => ({ name })));
        expect(await first.migrate()).toEqual([]);
      } finally {
        await Promise.all(instances.map((d) => d.close()));
      }
    });
  });
}

describe('migrations of the two engines', () => {
  it('are one list, in name order, naming each file of server/db/migrations/ once', () => {
    const files = fs
      .readdirSync(path.join(__dirname, '../../server/db/migrations'))
      .filter((f) => /^\d{3}_\w+\.ts$/.test(f))
      .map((f) => f.replace(/\.ts$/, '.sql'));
    expect(migrationNames()).toEqual([...files].sort());
  });

  it.skipIf(!POSTGRES_URL)('give the same tables, columns (types, NOT NULL, defaults), keys, indexes and foreign keys on both engines', async () => {
    const [sqlite, postgres] = await Promise.all(ENGINES.map((e) => e.create()));
    const a = (sqlite as TestDatabase).open();
    const b = (postgres as TestDatabase).open();
    try {
      await Promise.all([a.migrate(), b.migrate()]);
      const sqliteSchema = await sqliteShape(a, [...(await a.dataTables()), ...KEPT_TABLES]);
      const pgSchema = await postgresShape(b);
      // The comparison saw the schema: users' email is case-insensitive, times are NOT NULL integers.
      expect(sqliteSchema).toContain('users.email citext not null');
      expect(sqliteSchema).toContain('sessions.created_at integer not null');
      expect(pgSchema).toEqual(sqliteSchema);
      expect(await narrowTimesAndIds(b)).toEqual([]);
    } finally {
      await Promise.all([a.close(), b.close()]);
      await Promise.all([(sqlite as TestDatabase).dispose(), (postgres as TestDatabase).dispose()]);
    }
  });
});

describe('SQLite transactions', () => {
  it('roll back a callback that awaits something besides its statements (the one connection would stay locked)', async () => {
    const target = await ENGINES[0]!.create();
    const db = target.open();
    try {
      await db.migrate();
      await expect(
        db.tx(async (t) => {
          await addUser(t, 'slow@demo.test');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }),
      ).rejects.toThrow(/awaited something other than its statements/);
      expect(await db.get('SELECT id FROM users WHERE email = ?', ['slow@demo.test'])).toBeUndefined();
      // Control: only statements awaited, committed.
      await db.tx(async (t) => addUser(t, 'quick@demo.test'));
      expect(await db.get('SELECT email FROM users WHERE email = ?', ['quick@demo.test'])).toEqual({ email: 'quick@demo.test' });
    } finally {
      await db.close();
      await target.dispose();
    }
  });
});

describe.skipIf(!ENGINES[1]!.available)('PostgreSQL transactions of one account (tx options.lock)', () => {
  it('queue on the lock instead of failing to serialize; without it a try that ran out is DatabaseBusyError', async () => {
    const target = await ENGINES[1]!.create();
    const setup = target.open();
    // No second try: a serialization failure shows at once.
    const db = openPostgres({ connectionString: target.location, maxTxAttempts: 1 });
    try {
      await setup.migrate();
      const take = (options?: TxOptions) =>
        db.tx(async (t) => {
          const count = (await t.get<{ count: number }>('SELECT count FROM counters WHERE scope = ? AND key = ?', ['quota', 'k']))?.count ?? 0;
          if (count >= 5) return false;
          await t.run(
            'INSERT INTO counters (scope, key, window_start, count, expires_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT (scope, key) DO UPDATE SET count = excluded.count',
            ['quota', 'k', T0, count + 1, T0 + 1],
          );
          return true;
        }, options);
      const settled = async (options?: TxOptions) => Promise.allSettled(Array.from({ length: 20 }, () => take(options)));

      const locked = await settled({ lock: lockKey('account', 1) });
      expect(locked.map((r) => r.status)).toEqual(Array(20).fill('fulfilled'));
      expect(locked.filter((r) => r.status === 'fulfilled' && r.value)).toHaveLength(5);
      expect(await db.get('SELECT count FROM counters WHERE scope = ?', ['quota'])).toEqual({ count: 5 });

      // Control: the same transactions without the lock (SERIALIZABLE) collide; the losers are DatabaseBusyError, and none overran.
      await db.run('DELETE FROM counters');
      const unlocked = await settled();
      const refused = unlocked.filter((r) => r.status === 'rejected');
      expect(refused.length).toBeGreaterThan(0);
      for (const r of refused) expect((r as PromiseRejectedResult).reason).toBeInstanceOf(DatabaseBusyError);
      expect(unlocked.filter((r) => r.status === 'fulfilled' && r.value).length).toBeLessThanOrEqual(5);
    } finally {
      await Promise.all([db.close(), setup.close()]);
      await target.dispose();
    }
  });
});
