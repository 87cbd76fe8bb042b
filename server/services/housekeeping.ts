/**
 * Deletes expired rows (sessions, tokens, challenges, codes, ended counter windows, Duo stream rows)
 * and outbox messages older than OUTBOX_RETENTION_MS (they hold links and codes in clear), and funnel
 * events and their hourly aggregates older than the retention (FUNNEL_RETENTION_DAYS). Run at start and hourly.
 */
import type { Queryable } from '../db/data.js';
import { purgeExpiredRows } from '../db/expiring.js';
import { purgeFunnelEvents } from '../db/funnel.js';
import { purgeFunnelAggregates } from '../db/funnelAggregates.js';
import { SEEN_MS } from '../db/funnelHours.js';
import { purgeOutbox } from '../db/outbox.js';
import { purgeSso } from '../sso/housekeeping.js';

/** Keep expired rows this long (so "expired" can still be told apart from "unknown"). */
export const EXPIRED_GRACE_MS = 7 * 24 * 60 * 60 * 1000;
/** Outbox messages are kept a day: long enough to read a link (the longest lives 7 days, but a visitor asks again). */
export const OUTBOX_RETENTION_MS = 24 * 60 * 60 * 1000;

/** Funnel events are kept 90 days unless FUNNEL_RETENTION_DAYS says otherwise. */
export const FUNNEL_RETENTION_DAYS_DEFAULT = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export async function purgeExpired(q: Queryable, now: number, funnelRetentionDays = FUNNEL_RETENTION_DAYS_DEFAULT): Promise<number> {
  let n = await purgeExpiredRows(q, now - EXPIRED_GRACE_MS);
  n += await purgeOutbox(q, now - OUTBOX_RETENTION_MS);
  // Single sign-on round trips and SAML request IDs past their life, the demo OpenID provider's store.
  n += await purgeSso(q, now);
  const funnelBefore = now - funnelRetentionDays * DAY_MS;
  n += await purgeFunnelEvents(q, funnelBefore);
  n += await purgeFunnelAggregates(q, funnelBefore, now - SEEN_MS);
  return n;
}
