import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrationNames } from '../../server/db/migrations';
import { login, makeApp, row } from './helpers';
import { newStore, TEST_ENGINE } from './test-database';

describe('database', () => {
  it('is created (SQLite: with its directory), migrated once, seeded once, and keeps data across restarts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-db-'));
    const dbPath = path.join(dir, 'nested', 'app.sqlite');
    const store = TEST_ENGINE === 'sqlite' ? { options: { dbPath }, dispose: async () => undefined } : await newStore({ shared: true });
    try {
      const a = await makeApp(store.options);
      await login(a, 'tech@demo.test', 'wrong');
      const { uid } = await row<{ uid: string }>(a, "SELECT uid FROM users WHERE email = 'tech@demo.test'");
      await a.close();
      if (TEST_ENGINE === 'sqlite') expect(fs.existsSync(dbPath)).toBe(true);

      const b = await makeApp(store.options);
      expect((await row<{ uid: string }>(b, "SELECT uid FROM users WHERE email = 'tech@demo.test'")).uid).toBe(uid);
      expect(await b.fd.attempts.failures('login', 'tech@demo.test')).toBe(1);
      expect(await b.fd.data.migrate()).toEqual([]);
      const applied = await b.fd.data.all<{ name: string }>('SELECT name FROM schema_migrations ORDER BY name');
      expect(applied.map((r) => r.name)).toEqual(migrationNames());
      await b.close();
    } finally {
      await store.dispose();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
