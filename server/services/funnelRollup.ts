/**
 * Keeps the funnel's hourly aggregates up to date (db/funnelAggregates.ts): every few seconds on each
 * instance, and before a report (so the studio sees every event already taken), the events not
 * rolled up yet are, in chunks, one transaction each. The transactions of every instance queue on one
 * lock: two roll-ups never count the same events.
 */
import type { FastifyInstance } from 'fastify';
import { lockKey, type Database } from '../db/data.js';
import { rollUpPendingFunnelEvents } from '../db/funnelAggregates.js';

/** Events per transaction: a few hundred milliseconds of work at most. */
export const ROLLUP_CHUNK = 5000;
/** How often each instance rolls up (the report does too, first): at 1,000 events a second, 5,000 wait at most. */
export const ROLLUP_EVERY_MS = 5000;
/** Chunks in one call at most: a long backlog (after an upgrade) is worked off over several calls. */
const MAX_CHUNKS = 200;
const LOCK = lockKey('funnel', 'rollup');

/** Rolls up the pending events; returns how many. */
export async function rollUpFunnel(data: Database, chunk = ROLLUP_CHUNK): Promise<number> {
  let total = 0;
  for (let i = 0; i < MAX_CHUNKS; i += 1) {
    const n = await data.tx((t) => rollUpPendingFunnelEvents(t, chunk), { lock: LOCK });
    total += n;
    if (n < chunk) break;
  }
  return total;
}

/** Rolls up every ROLLUP_EVERY_MS while the app runs (a failure is logged; the next try takes the events). */
export function scheduleFunnelRollUp(app: FastifyInstance, data: Database): void {
  const timer = setInterval(() => void rollUpFunnel(data).catch((error: unknown) => app.log.warn({ err: error }, 'funnel roll-up failed')), ROLLUP_EVERY_MS);
  timer.unref();
  app.addHook('onClose', async () => clearInterval(timer));
}
