import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { expect } from 'vitest';
import type { BuildAppOptions } from '../../server/app';
import type { Database } from '../../server/db/data';
import { studioRoutes } from '../../server/routes/studio';
import { createPasswordService } from '../../server/crypto/passwords';
import type { EngineUnderTest, TestDatabase } from './db-engines';
import { makeApp, PASSWORD, sessionCookie, TEST_APP_SECRET, TEST_PASSWORD_COST } from './helpers';

/**
 * A studio server for tests: the real server (its sign-in, sessions and MFA: studio people sign in on
 * the product's sign-in page) with the studio's routes on a temporary copy of the catalogue (screens/,
 * schemas/, locales/), on a database of one engine (or the run's), with the demo's studio people as
 * accounts (editor@, approver@, MFA not required, as in the demo) plus a second approver and an
 * account without a studio role. The server's own dev tools are off: their studio would edit this
 * repository's files.
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

/** An active account with the test password; MFA not required unless asked. Returns its id. */
export async function addAccount(data: Database, email: string, options: { mfaRequired?: boolean } = {}): Promise<number> {
  const hash = await passwords.hash(PASSWORD);
  await data.run(
    `INSERT INTO users (uid, email, user_type, state, password_hash, mfa_required, created_at, updated_at) VALUES (?, ?, 'TECHNICIAN', 'active', ?, ?, 1, 1)
     ON CONFLICT (email) DO NOTHING`,
    [`uid-${email}`, email, hash, options.mfaRequired ? 1 : 0],
  );
  return (await data.get<{ id: number }>('SELECT id FROM users WHERE email = ?', [email]))!.id;
}

/** Gives an email a studio role. */
export async function giveRole(data: Database, email: string, role: 'editor' | 'approver'): Promise<void> {
  await data.run(`INSERT INTO studio_people (email, role, created_at) VALUES (?, ?, 1) ON CONFLICT (email) DO UPDATE SET role = excluded.role`, [email, role]);
}

/** The server options of a studio server: its dev tools off (so a secret and a public URL are given). */
export const STUDIO_SERVER: BuildAppOptions = { devTools: false, appSecret: TEST_APP_SECRET, publicUrl: 'http://localhost:8080', rateLimit: false };

export interface StudioServer {
  app: FastifyInstance;
  root: string;
  data: Database;
  /** The cookie header of a signed-in person (signed in once, on the product's sign-in). */
  as(email: string): Promise<{ cookie: string }>;
  call(who: { cookie: string } | undefined, options: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

/** The session cookie of a password sign-in that succeeds at once (an account without a second factor). */
export async function signInCookie(app: FastifyInstance, email: string): Promise<{ cookie: string }> {
  const res = await app.inject({ method: 'POST', url: '/ws/account/login', payload: { email, password: PASSWORD } });
  expect(res.json(), res.body).toMatchObject({ resultCode: 'SUCCESS' });
  const header = sessionCookie(res);
  expect(header).toBeDefined();
  return { cookie: header!.slice(0, header!.indexOf(';')) };
}

/**
 * A studio on `root` (default: a new copy) over `shared.target` (default: a new database of `engine`;
 * without an engine, the run's: tests/server/test-database.ts), with these server options.
 */
export async function studioServer(
  engine?: EngineUnderTest,
  shared?: { target: TestDatabase; root?: string },
  options: BuildAppOptions = {},
): Promise<StudioServer> {
  const target = engine ? (shared?.target ?? (await engine.create())) : undefined;
  const own = target?.open();
  await own?.migrate();
  const app = await makeApp({ ...STUDIO_SERVER, ...(own ? { data: own } : {}), ...options });
  const { data } = app.fd;
  for (const email of Object.values(PEOPLE)) await addAccount(data, email);
  const root = shared?.root ?? catalogueCopy();
  // No app to rebuild: the server's own is this repository's build.
  await app.register(studioRoutes({ root, appDir: false }));
  await giveRole(data, PEOPLE.approver2, 'approver');
  const sessions = new Map<string, { cookie: string }>();
  return {
    app,
    root,
    data,
    async as(email) {
      const known = sessions.get(email) ?? (await signInCookie(app, email));
      sessions.set(email, known);
      return known;
    },
    call: (who, options) => app.inject({ ...options, headers: { ...(options.headers ?? {}), ...(who ? { cookie: who.cookie } : {}) } }),
    async close() {
      await app.close();
      await own?.close();
      if (target && !shared) await target.dispose();
      if (!shared?.root) rmSync(root, { recursive: true, force: true });
    },
  };
}
