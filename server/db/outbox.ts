/**
 * The demo outbox (table outbox, migration 001): in demo mode a copy of every email and text, in the
 * words the flow wrote, for /dev/outbox (DEMO-TENANT.md); purged after a day. Outside demo mode
 * nothing writes it. Its rows and the delivery queue's are shown alike (OutboxRow).
 */
import type { Queryable } from './data.js';

export type Channel = 'email' | 'sms';

/** A message as /dev/outbox reads it from the database (this table, or the deliveries table). */
export interface OutboxRow {
  channel: Channel;
  to_address: string;
  subject: string | null;
  text: string;
  link: string | null;
  code: string | null;
  created_at: number;
}

export async function insertOutboxCopy(q: Queryable, row: OutboxRow): Promise<void> {
  await q.run('INSERT INTO outbox (channel, to_address, subject, text, link, code, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
    row.channel,
    row.to_address,
    row.subject,
    row.text,
    row.link,
    row.code,
    row.created_at,
  ]);
}

/** Every copy, newest first. */
export async function outboxRows(q: Queryable): Promise<OutboxRow[]> {
  return q.all<OutboxRow>('SELECT channel, to_address, subject, text, link, code, created_at FROM outbox ORDER BY id DESC');
}

export async function countOutbox(q: Queryable): Promise<number> {
  return (await q.get<{ n: number }>('SELECT count(*) AS n FROM outbox'))?.n ?? 0;
}

/** Deletes the copies made before `before`. */
export async function purgeOutbox(q: Queryable, before: number): Promise<number> {
  return (await q.run('DELETE FROM outbox WHERE created_at < ?', [before])).changes;
}
