/**
 * Helpers for tests that play the demo tenant's users (server/db/seed.ts): their authenticator codes,
 * what /dev/outbox holds for an address, and one demo app per test file on a clock the test moves.
 */
import type { FastifyInstance } from 'fastify';
import { createGuardrails, generate } from 'otplib';
import { afterAll, beforeAll, beforeEach, expect } from 'vitest';
import { DEMO_TOTP_SECRET } from '../../server/db/seed';
import type { OutboxMessage } from '../../server/delivery/types';
import type { Client } from '../security/attack-helpers';
import { expectContract, makeApp, post } from './helpers';

export { DEMO_TOTP_SECRET };

/** A fixed time in the middle of a 30 s TOTP step, so ±1 step is exact. */
export const T0 = Date.UTC(2026, 0, 1, 12, 0, 15);

/** The TOTP code of a secret (the demo users' by default) at a time. */
export const totp = (atMs: number, secret = DEMO_TOTP_SECRET) =>
  generate({ secret, epoch: Math.floor(atMs / 1000), guardrails: createGuardrails({ MIN_SECRET_BYTES: 10 }) });

/** The messages /dev/outbox holds for an email address or phone, newest first. */
export async function outbox(app: FastifyInstance, to: string): Promise<OutboxMessage[]> {
  return (await app.inject({ url: `/dev/outbox?to=${encodeURIComponent(to)}` })).json() as OutboxMessage[];
}

/** The codes of the texts sent to a phone, newest first ('' for a message without one). */
export async function sentCodes(app: FastifyInstance, phone: string): Promise<string[]> {
  return (await outbox(app, phone)).map((m) => m.code ?? '');
}

/**
 * One demo app (rate limits off) for the test file, on the file's clock: `ready` receives it once
 * made; before each test the demo tenant is reset and `rewind` sets the clock back; it closes after.
 */
export function demoAppPerFile(clock: { now: () => number; rewind: () => void; ready: (app: FastifyInstance) => void }): void {
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    app = await makeApp({ now: clock.now, rateLimit: false });
    clock.ready(app);
  });
  afterAll(async () => {
    await app?.close();
  });
  beforeEach(async () => {
    clock.rewind();
    await post(app!, '/dev/reset', {});
  });
}

/** One browser's call of an operation (GET without a payload): answered 200, within its contract; its body. */
export async function call(browser: Client, operation: string, url: string, payload?: unknown): Promise<Record<string, unknown>> {
  const res = payload === undefined ? await browser.get(url) : await browser.post(url, payload);
  expect(res.statusCode, res.body).toBe(200);
  const body = res.json() as Record<string, unknown>;
  expectContract(operation, body);
  return body;
}
