/**
 * The durable delivery queue (table `deliveries`, migration 020; its statements are
 * server/db/deliveries.ts, the same SQL on SQLite and PostgreSQL):
 * - `enqueue(t, message)` inside the caller's transaction: the message exists exactly when the reset
 *   code / activation key it carries does (a rolled-back request sends nothing);
 * - `claim` gives a worker a lease on due messages: one conditional UPDATE … RETURNING, so two workers
 *   (two instances) never hold the same row; PostgreSQL adds FOR UPDATE SKIP LOCKED so that they do
 *   not even wait for each other; a worker that dies leaves a lease that expires, and the row is
 *   claimed again (at-least-once);
 * - `settle` records the provider's answer, fenced by the claim (worker id + attempt): a late answer of
 *   a worker whose lease ran out cannot overwrite the newer claim's.
 */
import type { Queryable } from '../db/data.js';
import {
  claimDeliveries,
  deliveryOutboxRows,
  deliveryStateRow,
  failAbandonedDeliveries,
  insertDelivery,
  markSent,
  markUnsent,
  type DeliveryStatus,
} from '../db/deliveries.js';

export type { DeliveryStatus };
import type { OutboxRow } from '../db/outbox.js';
import { sameAddress } from './address.js';
import type { Channel, ClaimedDelivery, NewDelivery, OutboxMessage, SendResult } from './types.js';

export interface QueuePolicy {
  /** Channels that have a provider: their messages are 'pending' (sent by a worker); others are 'held' (demo outbox only). */
  delivering: ReadonlySet<Channel>;
  /** Tries before a retryable failure becomes 'failed' (default 8: about an hour with the default backoff). */
  maxAttempts: number;
  /** Wait before the n-th retry: backoffBaseMs · 2^(n-1), at most backoffMaxMs (defaults 30 s and 1 h). */
  backoffBaseMs: number;
  backoffMaxMs: number;
  /** How long a row is kept after it was created (default 7 days; housekeeping deletes it afterwards). */
  retentionMs: number;
  /**
   * Keep the body, link and code of sent messages (demo: /dev/outbox shows them). Off outside demo
   * mode: once delivered, a reset link or code has no business staying in the database.
   */
  keepContent: boolean;
}

export const DEFAULT_POLICY: Omit<QueuePolicy, 'delivering' | 'keepContent'> = {
  maxAttempts: 8,
  backoffBaseMs: 30_000,
  backoffMaxMs: 60 * 60_000,
  retentionMs: 7 * 24 * 60 * 60_000,
};

/** The delay before retry number `attempt` (1-based), with up to 10 % jitter so that instances spread out. */
export function backoffMs(policy: Pick<QueuePolicy, 'backoffBaseMs' | 'backoffMaxMs'>, attempt: number, random = Math.random): number {
  const exact = Math.min(policy.backoffMaxMs, policy.backoffBaseMs * 2 ** Math.max(0, attempt - 1));
  return Math.round(exact * (1 + 0.1 * random()));
}

/**
 * Writes a message in `t` (the caller's transaction, or the database alone); returns its id. It is
 * 'pending' when its channel has a transport: the deployment's, or the recipient's tenant's own
 * (`tenantDelivers`, a Twilio account of its own); else 'held'.
 */
export async function enqueue(
  t: Queryable,
  message: NewDelivery,
  policy: Pick<QueuePolicy, 'delivering' | 'retentionMs'>,
  now: number,
  tenantDelivers = false,
): Promise<number> {
  if (message.to.trim() === '') throw new Error('a delivery needs an address');
  return insertDelivery(t, {
    channel: message.channel,
    kind: message.kind,
    to: message.to,
    language: message.language,
    subject: message.subject ?? null,
    text: message.text,
    html: message.html ?? null,
    link: message.link ?? null,
    code: message.code ?? null,
    status: policy.delivering.has(message.channel) || tenantDelivers ? 'pending' : 'held',
    organizationId: message.organizationId ?? null,
    from: message.from ?? null,
    now,
    expiresAt: now + policy.retentionMs,
  });
}

/**
 * Leases up to `limit` due messages of the given channels to `owner` until now + leaseMs and counts
 * the attempt. Rows whose lease ran out (their worker died) are due again.
 */
export async function claim(
  q: Queryable,
  owner: string,
  channels: readonly Channel[],
  options: { limit: number; leaseMs: number; maxAttempts: number; now: number },
): Promise<ClaimedDelivery[]> {
  if (channels.length === 0) return [];
  const rows = await claimDeliveries(q, owner, channels, { ...options, until: options.now + options.leaseMs });
  return rows
    .sort((a, b) => a.id - b.id)
    .map((r) => ({
      id: r.id,
      channel: r.channel,
      kind: r.kind,
      to: r.to_address,
      language: r.language,
      subject: r.subject,
      text: r.text,
      html: r.html,
      createdAt: r.created_at,
      attempt: r.attempts,
      organizationId: r.organization_id,
      from: r.from_address,
    }));
}

export type Settled = 'sent' | 'retry' | 'failed' | 'lost-lease';

/**
 * Records a send's outcome for the claim (owner, attempt). Returns 'lost-lease' when the row was
 * claimed again meanwhile (this worker was too slow): the newer claim decides.
 */
export async function settle(
  q: Queryable,
  owner: string,
  message: ClaimedDelivery,
  provider: string,
  result: SendResult,
  policy: Omit<QueuePolicy, 'delivering' | 'retentionMs'>,
  now: number,
): Promise<Settled> {
  const fence = { id: message.id, owner, attempt: message.attempt };
  if (result.ok) {
    const sent = { now, provider, providerId: result.providerId ?? null, answer: result.answer.slice(0, 1000), keepContent: policy.keepContent };
    return (await markSent(q, fence, sent)) ? 'sent' : 'lost-lease';
  }
  const retry = result.retryable && message.attempt < policy.maxAttempts;
  const error = `${result.code ? `${result.code}: ` : ''}${result.error}`.slice(0, 1000);
  const outcome = { status: retry ? ('pending' as const) : ('failed' as const), next: retry ? now + backoffMs(policy, message.attempt) : now, provider, error };
  if (!(await markUnsent(q, fence, outcome))) return 'lost-lease';
  return retry ? 'retry' : 'failed';
}

/**
 * Messages whose every attempt was claimed by a worker that died mid-send (attempts used up, lease
 * expired, never settled) become 'failed' instead of waiting forever. Returns how many.
 */
export async function failAbandoned(q: Queryable, maxAttempts: number, now: number): Promise<number> {
  return failAbandonedDeliveries(q, maxAttempts, now, `no answer after ${maxAttempts} attempts (the worker stopped mid-send each time)`);
}

export interface DeliveryState {
  status: DeliveryStatus;
  attempts: number;
  provider: string | null;
  providerId: string | null;
  lastResult: string | null;
}

/** Where one message stands (a caller that waits for a text to leave, tests, the admin). */
export async function deliveryState(q: Queryable, id: number): Promise<DeliveryState | undefined> {
  const row = await deliveryStateRow(q, id);
  return row && { status: row.status, attempts: row.attempts, provider: row.provider, providerId: row.provider_id, lastResult: row.last_result };
}

/** /dev/outbox from the queue: every message, newest first; `to` filters by address or phone (address.ts sameAddress). */
export async function listOutbox(q: Queryable, to?: string): Promise<OutboxMessage[]> {
  return outboxMessages(await deliveryOutboxRows(q), to);
}

/** Outbox rows (the deliveries table, or the demo outbox table) as /dev/outbox shows them; `to` keeps one address's. */
export function outboxMessages(all: readonly OutboxRow[], to?: string): OutboxMessage[] {
  const rows = to === undefined ? all : all.filter((r) => sameAddress(r.to_address, to));
  return rows.map((r) => ({
    channel: r.channel,
    to: r.to_address,
    ...(r.subject !== null ? { subject: r.subject } : {}),
    text: r.text,
    ...(r.link !== null ? { link: r.link } : {}),
    ...(r.code !== null ? { code: r.code } : {}),
    createdAt: new Date(r.created_at).toISOString(),
  }));
}
