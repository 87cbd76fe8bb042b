/**
 * A message that carries a code is queued in the transaction that creates the code: a failure after
 * both were written (injected into the outbox right after its INSERT into the queue) rolls back both,
 * so no live code is left without its message and no message without its code. The control runs the
 * same request without the failure and finds one of each. Runs on the run's engine (SQLite, and
 * PostgreSQL in the 'postgres' project).
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Outbox } from '../../../server/services/outbox';
import { anyAddress, count, makeApp, PASSWORD, post } from '../helpers';

let app: FastifyInstance;
let real: Outbox;
beforeEach(async () => {
  app = await makeApp();
  real = app.fd.outbox;
});
afterEach(async () => {
  app.fd.outbox = real;
  await app.close();
});

/** From now on every message is written to the queue (and the demo outbox), then the request fails. */
function crashAfterEnqueue(): { queued: () => number } {
  let queued = 0;
  app.fd.outbox = {
    ...real,
    async send(q, msg) {
      await real.send(q, msg);
      queued += 1;
      throw new Error('injected crash after the message was queued');
    },
  };
  return { queued: () => queued };
}

const deliveries = (to: string) => count(app, 'SELECT count(*) AS n FROM deliveries WHERE to_address = ?', [to]);
const demoOutbox = (to: string) => count(app, 'SELECT count(*) AS n FROM outbox WHERE to_address = ?', [to]);
const userId = async (email: string) => (await count(app, 'SELECT id AS n FROM users WHERE email = ?', [email])) as number;

interface Case {
  name: string;
  to: string;
  /** Live codes of the flow (the rows the message's code or link stands for). */
  codes: () => Promise<number>;
  request: () => Promise<{ statusCode: number; body: string }>;
}

const cases: Case[] = [
  {
    name: 'reset link by email',
    to: 'nomfa@demo.test',
    codes: async () =>
      count(app, "SELECT count(*) AS n FROM verification_codes WHERE user_id = ? AND purpose = 'RESET_PASSWORD' AND used_at IS NULL", [
        await userId('nomfa@demo.test'),
      ]),
    request: () => post(app, '/ws/account/reset-password-init', { email: 'nomfa@demo.test', verifyBy: 'EMAIL' }, anyAddress()),
  },
  {
    name: 'reset security code by text',
    to: '+14155550123',
    codes: async () =>
      count(app, "SELECT count(*) AS n FROM verification_codes WHERE user_id = ? AND purpose = 'RESET_SMS' AND used_at IS NULL", [
        await userId('sms@demo.test'),
      ]),
    request: () => post(app, '/ws/account/reset-password-init', { email: 'sms@demo.test', verifyBy: 'TEXT', phoneDigits: '0123' }, anyAddress()),
  },
  {
    name: 'activation email',
    to: 'inactive@demo.test',
    codes: async () =>
      count(app, 'SELECT count(*) AS n FROM division_activations WHERE user_id = ? AND activated_at IS NULL AND sealed_key IS NOT NULL', [
        await userId('inactive@demo.test'),
      ]),
    request: () => post(app, '/ws/account/request-activation-email', { email: 'inactive@demo.test' }, anyAddress()),
  },
  {
    name: 'sign-in code by text (SMS MFA)',
    to: '+14155550123',
    codes: async () =>
      count(app, "SELECT count(*) AS n FROM mfa_challenges WHERE user_id = ? AND type = 'SMSOTP' AND used_at IS NULL", [await userId('sms@demo.test')]),
    request: () => post(app, '/ws/account/login', { email: 'sms@demo.test', password: PASSWORD }),
  },
];

describe('a code and the message that carries it commit together', () => {
  for (const c of cases) {
    it(`${c.name}: a failure after both were written leaves neither`, async () => {
      const before = { codes: await c.codes(), queued: await deliveries(c.to), demo: await demoOutbox(c.to) };
      const crash = crashAfterEnqueue();
      const res = await c.request();
      // The message really was written before the failure: the rollback, not a skipped INSERT, removed it.
      expect(crash.queued()).toBe(1);
      expect(res.statusCode, res.body).toBe(500);
      expect({ codes: await c.codes(), queued: await deliveries(c.to), demo: await demoOutbox(c.to) }).toEqual(before);
    });
    it(`${c.name}: control, without the failure one code and one message are written`, async () => {
      const before = { codes: await c.codes(), queued: await deliveries(c.to), demo: await demoOutbox(c.to) };
      const res = await c.request();
      expect(res.statusCode, res.body).toBe(200);
      expect({ codes: await c.codes(), queued: await deliveries(c.to), demo: await demoOutbox(c.to) }).toEqual({
        codes: before.codes + 1,
        queued: before.queued + 1,
        demo: before.demo + 1,
      });
    });
  }

  it('registration: the account, its activation key and the email commit together', async () => {
    const email = 'atomic@acme.test';
    const form = { companyName: 'Acme', firstName: 'Ada', lastName: 'Lovelace', email, password: 'Str0ng-Pass', passwordConfirm: 'Str0ng-Pass' };
    const keys = () => count(app, 'SELECT count(*) AS n FROM division_activations da JOIN users u ON u.id = da.user_id WHERE u.email = ?', [email]);
    const users = () => count(app, 'SELECT count(*) AS n FROM users WHERE email = ?', [email]);
    const crash = crashAfterEnqueue();
    const failed = await post(app, '/ws/account/register', form, anyAddress());
    expect(crash.queued()).toBe(1);
    expect(failed.statusCode, failed.body).toBe(500);
    expect([await users(), await keys(), await deliveries(email), await demoOutbox(email)]).toEqual([0, 0, 0, 0]);
    // Control: the same registration without the failure.
    app.fd.outbox = real;
    const ok = await post(app, '/ws/account/register', form, anyAddress());
    expect(ok.json()).toMatchObject({ resultCode: 'SUCCESS' });
    expect([await users(), await keys(), await deliveries(email), await demoOutbox(email)]).toEqual([1, 1, 1, 1]);
  });
});
