/**
 * The durable delivery queue (table `deliveries`, migration 020) on the async data layer, the same SQL
 * on SQLite and PostgreSQL:
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
import { sameAddress } from './address.js';
import type { Channel, ClaimedDelivery, NewDelivery, OutboxMessage, OutboxRow, SendResult } from './types.js';

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

export type DeliveryStatus = 'held' | 'pending' | 'sent' | 'failed';

interface ClaimRow {
  organization_id: number | null;
  from_address: string | null;
  id: number;
  channel: Channel;
  kind: string;
  to_address: string;
  language: string;
  subject: string | null;
  text: string;
  html: string | null;
  created_at: number;
  attempts: number;
}

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
  const row = await t.get<{ id: number }>(
    `INSERT INTO deliveries (channel, kind, to_address, language, subject, text, html, link, code, status, attempts, next_attempt_at, created_at, expires_at,
       organization_id, from_address)
     VALUES (@channel, @kind, @to, @language, @subject, @text, @html, @link, @code, @status, 0, @now, @now, @expires, @org, @from) RETURNING id`,
    {
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
      now,
      expires: now + policy.retentionMs,
      org: message.organizationId ?? null,
      from: message.from ?? null,
    },
  );
  if (!row) throw new Error('INSERT … RETURNING gave no id');
  return row.id;
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
  const names = channels.map((_, i) => `@c${i}`).join(', ');
  const due = `status = 'pending' AND next_attempt_at <= @now AND attempts < @max AND (lease_expires_at IS NULL OR lease_expires_at <= @now)`;
  // PostgreSQL: skip rows another worker is claiming right now instead of queueing behind its lock
  // (the outer condition is re-checked on the locked row either way). SQLite runs one writer at a time.
  const lock = q.engine === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  const rows = await q.all<ClaimRow>(
    `UPDATE deliveries SET lease_owner = @owner, lease_expires_at = @until, attempts = attempts + 1
     WHERE ${due} AND id IN (SELECT id FROM deliveries WHERE ${due} AND channel IN (${names}) ORDER BY next_attempt_at, id LIMIT @limit${lock})
     RETURNING id, channel, kind, to_address, language, subject, text, html, created_at, attempts, organization_id, from_address`,
    {
      owner,
      now: options.now,
      until: options.now + options.leaseMs,
      max: options.maxAttempts,
      limit: options.limit,
      ...Object.fromEntries(channels.map((c, i) => [`c${i}`, c])),
    },
  );
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
    const scrub = policy.keepContent ? '' : `, text = '', html = NULL, link = NULL, code = NULL`;
    const { changes } = await q.run(
      `UPDATE deliveries SET status = 'sent', sent_at = @now, provider = @provider, provider_id = @pid, last_result = @answer,
       lease_owner = NULL, lease_expires_at = NULL${scrub}
       WHERE id = @id AND lease_owner = @owner AND attempts = @attempt AND status = 'pending'`,
      { ...fence, now, provider, pid: result.providerId ?? null, answer: result.answer.slice(0, 1000) },
    );
    return changes === 1 ? 'sent' : 'lost-lease';
  }
  const retry = result.retryable && message.attempt < policy.maxAttempts;
  const error = `${result.code ? `${result.code}: ` : ''}${result.error}`.slice(0, 1000);
  const { changes } = await q.run(
    `UPDATE deliveries SET status = @status, next_attempt_at = @next, provider = @provider, last_result = @error,
     lease_owner = NULL, lease_expires_at = NULL
     WHERE id = @id AND lease_owner = @owner AND attempts = @attempt AND status = 'pending'`,
    { ...fence, status: retry ? 'pending' : 'failed', next: retry ? now + backoffMs(policy, message.attempt) : now, provider, error },
  );
  if (changes !== 1) return 'lost-lease';
  return retry ? 'retry' : 'failed';
}

/**
 * Messages whose every attempt was claimed by a worker that died mid-send (attempts used up, lease
 * expired, never settled) become 'failed' instead of waiting forever. Returns how many.
 */
export async function failAbandoned(q: Queryable, maxAttempts: number, now: number): Promise<number> {
  const { changes } = await q.run(
    `UPDATE deliveries SET status = 'failed', last_result = @why, lease_owner = NULL, lease_expires_at = NULL
     WHERE status = 'pending' AND attempts >= @max AND lease_expires_at IS NOT NULL AND lease_expires_at <= @now`,
    { max: maxAttempts, now, why: `no answer after ${maxAttempts} attempts (the worker stopped mid-send each time)` },
  );
  return changes;
}

/** Deletes rows past their retention (housekeeping). */
export async function purgeDeliveries(q: Queryable, now: number): Promise<number> {
  return (await q.run(`DELETE FROM deliveries WHERE expires_at < ? AND status <> 'pending'`, [now])).changes;
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
  const row = await q.get<{ status: DeliveryStatus; attempts: number; provider: string | null; provider_id: string | null; last_result: string | null }>(
    'SELECT status, attempts, provider, provider_id, last_result FROM deliveries WHERE id = ?',
    [id],
  );
  return row && { status: row.status, attempts: row.attempts, provider: row.provider, providerId: row.provider_id, lastResult: row.last_result };
}

/** /dev/outbox from the queue: every message, newest first; `to` filters by address or phone (address.ts sameAddress). */
export async function listOutbox(q: Queryable, to?: string): Promise<OutboxMessage[]> {
  return outboxMessages(await q.all<OutboxRow>('SELECT channel, to_address, subject, text, link, code, created_at FROM deliveries ORDER BY id DESC'), to);
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
