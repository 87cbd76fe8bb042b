/**
 * Nothing is lost when an instance dies: 50 messages are queued, a worker in a child process sends
 * them to a real SMTP listener and is killed with SIGKILL while the listener holds message 20 (its
 * DATA not yet acknowledged), so its batch stays leased. A new worker, once the lease has expired,
 * sends the rest: every message arrives, and each exactly once (the killed one's message 20 was never
 * accepted). Then the same with the whole server: `server/main.ts` (production start, SMTP_URL) is
 * killed with SIGKILL mid-queue and started again on the same database. On SQLite (one file, two
 * processes) and on PostgreSQL.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/data';
import { smtpSender } from '../../../server/delivery/email/smtp';
import { enqueue, DEFAULT_POLICY } from '../../../server/delivery/queue';
import { createDeliveryWorker } from '../../../server/delivery/worker';
import { ENGINES, type TestDatabase } from '../db-engines';
import { TEST_APP_SECRET } from '../helpers';
import { startServer, stopServer } from '../server-process';
import { startSmtpListener, type SmtpListener } from './smtp-listener';

const CHILD = path.join(__dirname, 'kill-child.ts');
const TOTAL = 50;
const HOLD = 20;

const policy = { delivering: new Set(['email'] as const), retentionMs: DEFAULT_POLICY.retentionMs };

/** 50 emails in the queue, as the flows leave them (one transaction here, so none is sent before all are in). */
async function queueFifty(db: Database, label: string): Promise<void> {
  await db.tx(async (t) => {
    for (let i = 1; i <= TOTAL; i++)
      await enqueue(
        t,
        { channel: 'email', kind: 'reset', to: `user${i}@demo.test`, language: 'en-us', subject: `${label} ${i}`, text: `Body ${i}` },
        policy,
        Date.now(),
      );
  });
}

/** The listener accepts messages until the HOLD-th, which it holds (DATA unanswered) until release(); then refuses it. */
function holdAt(listener: SmtpListener): { atHold: Promise<void>; release: () => void } {
  let arrivals = 0;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  let reachedHold: () => void = () => undefined;
  const atHold = new Promise<void>((resolve) => (reachedHold = resolve));
  listener.answer = async () => {
    arrivals += 1;
    if (arrivals === HOLD) {
      reachedHold();
      await held;
      return Object.assign(new Error('connection gone'), { responseCode: 421 });
    }
    return undefined;
  };
  return { atHold, release: () => release() };
}

/** Every message once: the subjects that arrived are exactly label 1..50, and every row is 'sent'. */
async function expectEachOnce(db: Database, listener: SmtpListener, label: string): Promise<void> {
  const subjects = listener.received.map((r) => r.mail.subject ?? '').filter((s) => s.startsWith(`${label} `));
  expect(new Set(subjects).size).toBe(subjects.length);
  expect(subjects.sort()).toEqual(Array.from({ length: TOTAL }, (_, i) => `${label} ${i + 1}`).sort());
  const rows = await db.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM deliveries GROUP BY status');
  expect(rows).toEqual([{ status: 'sent', n: TOTAL }]);
}

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`kill -9 on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let listener: SmtpListener;

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
      listener = await startSmtpListener();
    });
    afterAll(async () => {
      await listener?.close();
      await db?.close();
      await target?.dispose();
    });
    beforeEach(async () => {
      await db.run('DELETE FROM deliveries');
      listener.received.length = 0;
    });

    it('a worker killed mid-batch: no message lost, each sent once', { timeout: 60_000 }, async () => {
      await queueFifty(db, 'Message');
      const { atHold, release } = holdAt(listener);

      const child = spawn(process.execPath, ['--import', 'tsx', CHILD], {
        env: { ...process.env, FD_DB: target.location, FD_SMTP_URL: listener.url, FD_LEASE_MS: '1500' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      await Promise.race([atHold, exited.then(() => Promise.reject(new Error(`the child ended early: ${output}`)))]);
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      release();
      expect(listener.received).toHaveLength(HOLD - 1);
      const leased = await db.get<{ n: number }>("SELECT count(*) AS n FROM deliveries WHERE status = 'pending' AND lease_owner = 'child'");
      expect(leased?.n).toBeGreaterThan(0); // the rest of its batch is still leased to the dead worker

      const survivor = createDeliveryWorker({
        data: db,
        senders: { email: smtpSender({ url: listener.url, from: 'Front Door <no-reply@demo.test>' }) },
        owner: 'survivor',
      });
      const deadline = Date.now() + 20_000;
      for (;;) {
        await survivor.runOnce();
        const left = await db.get<{ n: number }>("SELECT count(*) AS n FROM deliveries WHERE status <> 'sent'");
        if (left?.n === 0 || Date.now() > deadline) break;
        await new Promise((r) => setTimeout(r, 200));
      }
      await survivor.stop();

      await expectEachOnce(db, listener, 'Message');
    });

    it('the whole server killed and restarted on the same database: all 50 queued messages delivered, none twice', { timeout: 120_000 }, async () => {
      const env = {
        ...(engine.name === 'postgres' ? { DATABASE_URL: target.location } : { DB_PATH: target.location }),
        APP_SECRET: TEST_APP_SECRET,
        PUBLIC_URL: 'https://signin.example.test',
        SMTP_URL: listener.url,
        MAIL_FROM: 'Front Door <no-reply@example.test>',
        // Texts have no transport here, on purpose.
        DELIVERY: 'hold',
        // A short claim, so that the restarted server takes over the dead one's messages within the test.
        DELIVERY_LEASE_SECONDS: '2',
      };
      await queueFifty(db, 'Queued');
      const { atHold, release } = holdAt(listener);
      const first = await startServer(env);
      const exited = new Promise<NodeJS.Signals | null>((resolve) => first.child.on('exit', (_code, signal) => resolve(signal)));
      await Promise.race([atHold, exited.then(() => Promise.reject(new Error(`the server ended early: ${first.output()}`)))]);
      first.child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      release();
      expect(listener.received).toHaveLength(HOLD - 1);
      const unsent = await db.get<{ n: number }>("SELECT count(*) AS n FROM deliveries WHERE status = 'pending'");
      expect(unsent?.n).toBe(TOTAL - (HOLD - 1));

      const second = await startServer(env);
      try {
        await expect
          .poll(async () => (await db.get<{ n: number }>("SELECT count(*) AS n FROM deliveries WHERE status <> 'sent'"))?.n, { timeout: 30_000, interval: 250 })
          .toBe(0);
      } finally {
        await stopServer(second.child);
      }
      await expectEachOnce(db, listener, 'Queued');
    });
  });
}
