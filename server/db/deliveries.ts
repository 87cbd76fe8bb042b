/**
 * The delivery queue's rows (table deliveries, migrations 020 and 050): one per email or text,
 * written in the caller's transaction, leased to one worker at a time, settled with the provider's
 * answer. The decisions (which status, when to retry) are server/delivery/queue.ts's; these are its
 * statements, the same SQL on SQLite and PostgreSQL.
 */
import type { Queryable } from './data.js';
import type { Channel, OutboxRow } from './outbox.js';

export type DeliveryStatus = 'held' | 'pending' | 'sent' | 'failed';

export interface NewDeliveryRow {
  channel: Channel;
  kind: string;
  to: string;
  language: string;
  subject: string | null;
  text: string;
  html: string | null;
  link: string | null;
  code: string | null;
  status: 'held' | 'pending';
  organizationId: number | null;
  from: string | null;
  now: number;
  expiresAt: number;
}

export async function insertDelivery(t: Queryable, row: NewDeliveryRow): Promise<number> {
  const { now, expiresAt, organizationId, from, ...values } = row;
  const inserted = await t.get<{ id: number }>(
    `INSERT INTO deliveries (channel, kind, to_address, language, subject, text, html, link, code, status, attempts, next_attempt_at, created_at, expires_at,
       organization_id, from_address)
     VALUES (@channel, @kind, @to, @language, @subject, @text, @html, @link, @code, @status, 0, @now, @now, @expires, @org, @from) RETURNING id`,
    { ...values, now, expires: expiresAt, org: organizationId, from },
  );
  if (!inserted) throw new Error('INSERT … RETURNING gave no id');
  return inserted.id;
}

export interface ClaimedRow {
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
  organization_id: number | null;
  from_address: string | null;
}

/**
 * Leases up to `limit` due rows of the channels to `owner` until `until`, counting the attempt: one
 * conditional UPDATE … RETURNING, so two workers never hold one row (PostgreSQL skips rows another
 * worker is locking instead of queueing behind it; SQLite runs one writer at a time). A row whose lease
 * ran out is due again.
 */
export async function claimDeliveries(
  q: Queryable,
  owner: string,
  channels: readonly Channel[],
  options: { limit: number; until: number; maxAttempts: number; now: number },
): Promise<ClaimedRow[]> {
  const names = channels.map((_, i) => `@c${i}`).join(', ');
  const due = `status = 'pending' AND next_attempt_at <= @now AND attempts < @max AND (lease_expires_at IS NULL OR lease_expires_at <= @now)`;
  const lock = q.engine === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : '';
  return q.all<ClaimedRow>(
    `UPDATE deliveries SET lease_owner = @owner, lease_expires_at = @until, attempts = attempts + 1
     WHERE ${due} AND id IN (SELECT id FROM deliveries WHERE ${due} AND channel IN (${names}) ORDER BY next_attempt_at, id LIMIT @limit${lock})
     RETURNING id, channel, kind, to_address, language, subject, text, html, created_at, attempts, organization_id, from_address`,
    {
      owner,
      now: options.now,
      until: options.until,
      max: options.maxAttempts,
      limit: options.limit,
      ...Object.fromEntries(channels.map((c, i) => [`c${i}`, c])),
    },
  );
}

/** The claim a settlement must still hold: the worker and the attempt it counted. */
export interface Fence {
  id: number;
  owner: string;
  attempt: number;
}

const FENCED = `WHERE id = @id AND lease_owner = @owner AND attempts = @attempt AND status = 'pending'`;

/** Marks the claimed row sent (its content scrubbed unless kept); false when the claim was lost. */
export async function markSent(
  q: Queryable,
  fence: Fence,
  sent: { now: number; provider: string; providerId: string | null; answer: string; keepContent: boolean },
): Promise<boolean> {
  const scrub = sent.keepContent ? '' : `, text = '', html = NULL, link = NULL, code = NULL`;
  const { changes } = await q.run(
    `UPDATE deliveries SET status = 'sent', sent_at = @now, provider = @provider, provider_id = @pid, last_result = @answer,
     lease_owner = NULL, lease_expires_at = NULL${scrub} ${FENCED}`,
    { ...fence, now: sent.now, provider: sent.provider, pid: sent.providerId, answer: sent.answer },
  );
  return changes === 1;
}

/** Records a failed send: pending again at `next`, or failed; false when the claim was lost. */
export async function markUnsent(
  q: Queryable,
  fence: Fence,
  outcome: { status: 'pending' | 'failed'; next: number; provider: string; error: string },
): Promise<boolean> {
  const { changes } = await q.run(
    `UPDATE deliveries SET status = @status, next_attempt_at = @next, provider = @provider, last_result = @error,
     lease_owner = NULL, lease_expires_at = NULL ${FENCED}`,
    { ...fence, ...outcome },
  );
  return changes === 1;
}

/** Rows whose every attempt was claimed by a worker that died mid-send become 'failed' with `why`. Returns how many. */
export async function failAbandonedDeliveries(q: Queryable, maxAttempts: number, now: number, why: string): Promise<number> {
  const { changes } = await q.run(
    `UPDATE deliveries SET status = 'failed', last_result = @why, lease_owner = NULL, lease_expires_at = NULL
     WHERE status = 'pending' AND attempts >= @max AND lease_expires_at IS NOT NULL AND lease_expires_at <= @now`,
    { max: maxAttempts, now, why },
  );
  return changes;
}

/** Deletes rows past their retention that are not waiting to be sent (housekeeping). */
export async function purgeDeliveries(q: Queryable, now: number): Promise<number> {
  return (await q.run(`DELETE FROM deliveries WHERE expires_at < ? AND status <> 'pending'`, [now])).changes;
}

export interface DeliveryStateRow {
  status: DeliveryStatus;
  attempts: number;
  provider: string | null;
  provider_id: string | null;
  last_result: string | null;
}

export async function deliveryStateRow(q: Queryable, id: number): Promise<DeliveryStateRow | undefined> {
  return q.get<DeliveryStateRow>('SELECT status, attempts, provider, provider_id, last_result FROM deliveries WHERE id = ?', [id]);
}

/** Every row as /dev/outbox shows it, newest first. */
export async function deliveryOutboxRows(q: Queryable): Promise<OutboxRow[]> {
  return q.all<OutboxRow>('SELECT channel, to_address, subject, text, link, code, created_at FROM deliveries ORDER BY id DESC');
}

/** How many rows have each status (the metrics, read at scrape time). */
export async function deliveriesByStatus(q: Queryable): Promise<Array<{ status: string; n: number }>> {
  return q.all<{ status: string; n: number }>('SELECT status, count(*) AS n FROM deliveries GROUP BY status');
}
