import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import Fastify, { type FastifyInstance, type InjectOptions, type LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { Database } from '../../server/db/data';
import { studioRoutes } from '../../server/routes/studio';
import { createPasswordService } from '../../server/services/passwords';
import type { EngineUnderTest, TestDatabase } from './db-engines';
import { PASSWORD, TEST_PASSWORD_COST } from './helpers';

/**
 * A studio server for tests: the studio's routes on a temporary copy of the catalogue (screens/,
 * schemas/, locales/) and a fresh database of one engine, with the demo's studio people as accounts
 * (editor@, approver@) plus a second approver and an account without a studio role.
 */
const repo = resolve(__dirname, '../..');
const passwords = createPasswordService(TEST_PASSWORD_COST);
export const PEOPLE = { editor: 'editor@demo.test', approver: 'approver@demo.test', approver2: 'approver2@demo.test', outsider: 'nomfa@demo.test' };

export function catalogueCopy(): string {
  const root = mkdtempSync(join(tmpdir(), 'frontdoor-studio-test-'));
  for (const part of ['screens', 'schemas', 'locales']) cpSync(join(repo, part), join(root, part), { recursive: true });
  mkdirSync(join(root, 'dist/studio'), { recursive: true });
  writeFileSync(join(root, 'dist/studio/index.html'), '<!doctype html><title>studio</title>');
  return root;
}

export async function peopleDatabase(target: TestDatabase): Promise<Database> {
  const data = target.open();
  await data.migrate();
  const hash = await passwords.hash(PASSWORD);
  for (const email of Object.values(PEOPLE))
    await data.run(
      `INSERT INTO users (uid, email, user_type, state, password_hash, created_at, updated_at) VALUES (?, ?, 'TECHNICIAN', 'active', ?, 1, 1)
       ON CONFLICT (email) DO NOTHING`,
      [`uid-${email}`, email, hash],
    );
  await data.run(`INSERT INTO studio_people (email, role, created_at) VALUES (?, 'approver', 1) ON CONFLICT (email) DO NOTHING`, [PEOPLE.approver2]);
  return data;
}

export interface StudioServer {
  app: FastifyInstance;
  root: string;
  data: Database;
  /** The cookie header of a signed-in person. */
  as(email: string): Promise<{ cookie: string }>;
  call(who: { cookie: string } | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** A studio on `root` (default: a new copy) over `data` (default: a new database of the engine). */
export async function studioServer(engine: EngineUnderTest, shared?: { target: TestDatabase; root?: string }): Promise<StudioServer> {
  const target = shared?.target ?? (await engine.create());
  const data = await peopleDatabase(target);
  const root = shared?.root ?? catalogueCopy();
  const app = Fastify();
  await app.register(studioRoutes({ root, services: { data, verifyPassword: (p, s) => passwords.verify(p, s), now: Date.now } }));
  const sessions = new Map<string, string>();
  return {
    app,
    root,
    data,
    async as(email) {
      let cookie = sessions.get(email);
      if (!cookie) {
        const res = await app.inject({ method: 'POST', url: '/dev/studio/api/session', payload: { email, password: PASSWORD } });
        expect(res.statusCode, res.body).toBe(200);
        const header = String(res.headers['set-cookie']);
        cookie = header.slice(0, header.indexOf(';'));
        sessions.set(email, cookie);
      }
      return { cookie };
    },
    call: (who, options) => app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(who ? { cookie: who.cookie } : {}) } }),
    async close() {
      await app.close();
      await data.close();
      if (!shared) {
        await target.dispose();
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}
