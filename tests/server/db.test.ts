import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrate, openDb } from '../../server/db/index';
import { login, makeApp } from './helpers';

describe('database file', () => {
  it('is created with its directory, migrated once, seeded once, and keeps data across restarts', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-db-'));
    const dbPath = path.join(dir, 'nested', 'app.sqlite');
    try {
      const a = await makeApp({ dbPath });
      await login(a, 'tech@demo.test', 'wrong');
      const uid = (a.fd.db.prepare("SELECT uid FROM users WHERE email = 'tech@demo.test'").get() as { uid: string }).uid;
      await a.close();
      expect(fs.existsSync(dbPath)).toBe(true);

      const b = await makeApp({ dbPath });
      expect((b.fd.db.prepare("SELECT uid FROM users WHERE email = 'tech@demo.test'").get() as { uid: string }).uid).toBe(uid);
      expect(b.fd.attempts.failures('login', 'tech@demo.test')).toBe(1);
      expect(migrate(b.fd.db)).toEqual([]);
      await b.close();

      const db = openDb(dbPath);
      expect((db.prepare('SELECT name FROM schema_migrations').all() as { name: string }[]).map((r) => r.name)).toEqual(
        fs
          .readdirSync(path.join('server', 'db', 'migrations'))
          .filter((f) => f.endsWith('.sql'))
          .sort(),
      );
      db.close();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
