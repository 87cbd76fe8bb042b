/**
 * The delivery queue on both engines: enqueue inside the caller's transaction, claims that never
 * overlap (two workers on one database), retries with backoff up to a maximum, permanent failures,
 * the provider's answer recorded, lease expiry (a dead worker's messages are sent by another), content
 * scrubbed after sending outside demo mode, and the /dev/outbox view.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../../server/db/data';
import { backoffMs, claim, deliveryState, enqueue, failAbandoned, listOutbox, settle, DEFAULT_POLICY } from '../../../server/delivery/queue';
import type { ClaimedDelivery, NewDelivery, SendResult, Sender } from '../../../server/delivery/types';
import { createDeliveryWorker } from '../../../server/delivery/worker';
import { ENGINES, POSTGRES_REQUIRED, POSTGRES_URL, type TestDatabase } from '../db-engines';

const both = { delivering: new Set(['email', 'sms'] as const), retentionMs: DEFAULT_POLICY.retentionMs };
const policy = { ...DEFAULT_POLICY, keepContent: true };

function mail(n: number, extra: Partial<NewDelivery> = {}): NewDelivery {
  return {
    channel: 'email',
    kind: 'reset',
    to: `user${n}@demo.test`,
    language: 'en-us',
    subject: `Reset ${n}`,
    text: `Open https://x.test/r/${n}`,
    link: `https://x.test/r/${n}`,
    ...extra,
  };
}

/** A sender that records what it was given and answers from a script (default: accepted). */
function recordingSender(answer: (m: ClaimedDelivery) => SendResult | Promise<SendResult> = () => ({ ok: true, answer: '250 OK' })) {
  const seen: ClaimedDelivery[] = [];
  const sender: Sender = {
    channel: 'email',
    name: 'test',
    async send(m) {
      seen.push(m);
      return answer(m);
    },
  };
  return { sender, seen };
}

it('PostgreSQL is there when npm test asks for it', () => {
  if (POSTGRES_REQUIRED) expect(POSTGRES_URL).toBeTruthy();
});

it('backs off exponentially up to the maximum', () => {
  const p = { backoffBaseMs: 1000, backoffMaxMs: 10_000 };
  expect([1, 2, 3, 4, 5, 9].map((n) => backoffMs(p, n, () => 0))).toEqual([1000, 2000, 4000, 8000, 10_000, 10_000]);
  expect(backoffMs(p, 1, () => 1)).toBe(1100);
});

for (const engine of ENGINES) {
  describe.skipIf(!engine.available)(`delivery queue on ${engine.name}`, () => {
    let target: TestDatabase;
    let db: Database;
    let other: Database;
    const T = 1_767_225_600_000;

    beforeAll(async () => {
      target = await engine.create();
      db = target.open();
      await db.migrate();
      other = target.open();
    });
    afterAll(async () => {
      await other?.close();
      await db?.close();
      await target?.dispose();
    });
    beforeEach(async () => {
      await db.wipe();
    });

    it('enqueues inside the caller transaction: a rolled-back request leaves no message', async () => {
      await expect(
        db.tx(async (t) => {
          await enqueue(t, mail(1), both, T);
          throw new Error('the request failed after the code was issued');
        }),
      ).rejects.toThrow('the request failed');
      expect(await listOutbox(db)).toEqual([]);
      const id = await db.tx((t) => enqueue(t, mail(2), both, T));
      expect(await deliveryState(db, id)).toMatchObject({ status: 'pending', attempts: 0 });
    });

    it('holds messages of a channel without a provider (demo outbox), and lists the outbox like /dev/outbox', async () => {
      await enqueue(db, mail(1), { ...both, delivering: new Set(['sms']) }, T);
      await enqueue(db, { channel: 'sms', kind: 'mfa-code', to: '+14155550123', language: 'en-us', text: 'Code 123456', code: '123456' }, both, T + 1);
      expect(await claim(db, 'w', ['email', 'sms'], { limit: 10, leaseMs: 1000, maxAttempts: 3, now: T + 5 })).toHaveLength(1);
      expect(await listOutbox(db)).toEqual([
        { channel: 'sms', to: '+14155550123', text: 'Code 123456', code: '123456', createdAt: new Date(T + 1).toISOString() },
        {
          channel: 'email',
          to: 'user1@demo.test',
          subject: 'Reset 1',
          text: 'Open https://x.test/r/1',
          link: 'https://x.test/r/1',
          createdAt: new Date(T).toISOString(),
        },
      ]);
      expect((await listOutbox(db, '+1 415 555 0123')).map((m) => m.channel)).toEqual(['sms']);
      expect((await listOutbox(db, 'USER1@demo.test')).map((m) => m.channel)).toEqual(['email']);
    });

    it('never gives one message to two claimers, even when they claim at the same moment', async () => {
      for (let i = 0; i < 30; i++) await enqueue(db, mail(i), both, T);
      const claims = await Promise.all(
        Array.from({ length: 6 }, (_, i) => claim(i % 2 ? other : db, `w${i}`, ['email'], { limit: 7, leaseMs: 60_000, maxAttempts: 3, now: T })),
      );
      const ids = claims.flat().map((m) => m.id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(ids.length).toBe(30);
    });

    it('two workers on two connections send every message exactly once', async () => {
      for (let i = 0; i < 40; i++) await enqueue(db, mail(i), both, T);
      const a = recordingSender(async () => {
        await new Promise((r) => setTimeout(r, 2));
        return { ok: true, answer: '250 a' };
      });
      const b = recordingSender(async () => {
        await new Promise((r) => setTimeout(r, 3));
        return { ok: true, answer: '250 b' };
      });
      const w1 = createDeliveryWorker({ data: db, senders: { email: a.sender }, batchSize: 3, policy });
      const w2 = createDeliveryWorker({ data: other, senders: { email: b.sender }, batchSize: 3, policy });
      await Promise.all([w1.runOnce(), w2.runOnce()]);
      const sent = [...a.seen, ...b.seen].map((m) => m.to).sort();
      expect(sent).toEqual(Array.from({ length: 40 }, (_, i) => `user${i}@demo.test`).sort());
      const rows = await db.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM deliveries GROUP BY status');
      expect(rows).toEqual([{ status: 'sent', n: 40 }]);
    });

    it('retries a temporary failure with backoff, records the answer, and gives up after the maximum', async () => {
      let clock = T;
      const id = await enqueue(db, mail(1), both, T);
      const flaky = recordingSender(() => ({ ok: false, retryable: true, error: '421 try later', code: '421' }));
      const worker = createDeliveryWorker({
        data: db,
        senders: { email: flaky.sender },
        now: () => clock,
        policy: { ...policy, maxAttempts: 3, backoffBaseMs: 1000 },
      });
      await worker.runOnce();
      expect(await deliveryState(db, id)).toMatchObject({ status: 'pending', attempts: 1, lastResult: '421: 421 try later', provider: 'test' });
      await worker.runOnce();
      expect(flaky.seen).toHaveLength(1); // not due yet
      clock += 1100;
      await worker.runOnce();
      expect(flaky.seen).toHaveLength(2);
      clock += 2200;
      await worker.runOnce();
      expect(flaky.seen).toHaveLength(3);
      expect(await deliveryState(db, id)).toMatchObject({ status: 'failed', attempts: 3 });
      clock += 1_000_000;
      await worker.runOnce();
      expect(flaky.seen).toHaveLength(3);
    });

    it('does not retry a permanent refusal, and records the provider id of a success', async () => {
      const bad = await enqueue(db, mail(1, { to: 'nobody@invalid' }), both, T);
      const good = await enqueue(db, mail(2), both, T);
      const s = recordingSender((m) =>
        m.to === 'nobody@invalid'
          ? { ok: false, retryable: false, error: '550 no such user', code: '550' }
          : { ok: true, providerId: '<m2@x>', answer: '250 queued' },
      );
      await createDeliveryWorker({ data: db, senders: { email: s.sender }, policy }).runOnce();
      expect(await deliveryState(db, bad)).toMatchObject({ status: 'failed', attempts: 1, lastResult: '550: 550 no such user' });
      expect(await deliveryState(db, good)).toMatchObject({ status: 'sent', providerId: '<m2@x>', lastResult: '250 queued' });
    });

    it("re-claims a dead worker's messages once its lease expires, and ignores the dead worker's late answer", async () => {
      const id = await enqueue(db, mail(1), both, T);
      const [held] = await claim(db, 'dead', ['email'], { limit: 5, leaseMs: 1000, maxAttempts: 5, now: T });
      expect(held?.id).toBe(id);
      expect(await claim(db, 'alive', ['email'], { limit: 5, leaseMs: 1000, maxAttempts: 5, now: T + 999 })).toEqual([]);
      const [again] = await claim(db, 'alive', ['email'], { limit: 5, leaseMs: 1000, maxAttempts: 5, now: T + 1000 });
      expect(again).toMatchObject({ id, attempt: 2 });
      // The first worker answers late: its settle is fenced out.
      expect(await settle(db, 'dead', held as ClaimedDelivery, 'test', { ok: true, answer: 'late' }, policy, T + 1001)).toBe('lost-lease');
      expect(await settle(db, 'alive', again as ClaimedDelivery, 'test', { ok: true, answer: '250' }, policy, T + 1002)).toBe('sent');
      expect(await deliveryState(db, id)).toMatchObject({ status: 'sent', lastResult: '250' });
    });

    it('fails a message whose attempts all died mid-send instead of keeping it forever', async () => {
      const id = await enqueue(db, mail(1), both, T);
      await claim(db, 'a', ['email'], { limit: 1, leaseMs: 10, maxAttempts: 2, now: T });
      await claim(db, 'b', ['email'], { limit: 1, leaseMs: 10, maxAttempts: 2, now: T + 10 });
      expect(await claim(db, 'c', ['email'], { limit: 1, leaseMs: 10, maxAttempts: 2, now: T + 20 })).toEqual([]);
      expect(await failAbandoned(db, 2, T + 20)).toBe(1);
      expect(await deliveryState(db, id)).toMatchObject({ status: 'failed', attempts: 2 });
    });

    it('scrubs the body, link and code of a sent message outside demo mode (kept in demo mode for /dev/outbox)', async () => {
      await enqueue(db, mail(1, { code: '123456' }), both, T);
      await createDeliveryWorker({ data: db, senders: { email: recordingSender().sender }, policy: { ...policy, keepContent: false } }).runOnce();
      const [row] = await db.all<{ text: string; link: string | null; code: string | null; status: string }>('SELECT text, link, code, status FROM deliveries');
      expect(row).toEqual({ text: '', link: null, code: null, status: 'sent' });
      await enqueue(db, mail(2, { code: '654321' }), both, T);
      await createDeliveryWorker({ data: db, senders: { email: recordingSender().sender }, policy }).runOnce();
      expect((await listOutbox(db, 'user2@demo.test'))[0]).toMatchObject({ code: '654321', link: 'https://x.test/r/2' });
    });
  });
}
