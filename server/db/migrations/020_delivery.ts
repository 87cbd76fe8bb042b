/**
 * 020: the delivery queue (issue 26). Every email and text is a row: written in the caller's
 * transaction, claimed by one worker of one instance at a time (a lease that expires when that worker
 * dies, so another re-claims it), retried with backoff, and settled with the provider's answer.
 * /dev/outbox reads the same rows in demo mode. docs/delivery-and-sso.md describes the life of a row.
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

export async function up({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('deliveries'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('email', 'sms')`))
    .addColumn('kind', 'text', (c) => c.notNull()) // reset, activation, … (server/delivery/kinds.ts)
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (c) => c.notNull()) // the plain-text body ('' once sent outside demo mode)
    .addColumn('html', 'text') // email only
    .addColumn('link', 'text')
    .addColumn('code', 'text')
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('held', 'pending', 'sent', 'failed')`))
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('next_attempt_at', big, (c) => c.notNull())
    .addColumn('lease_owner', 'text') // the worker holding it, until lease_expires_at
    .addColumn('lease_expires_at', big)
    .addColumn('provider', 'text') // smtp, twilio
    .addColumn('provider_id', 'text') // Message-ID / Twilio SID
    .addColumn('last_result', 'text') // the provider's last answer or error
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('sent_at', big)
    .addColumn('expires_at', big, (c) => c.notNull()) // when housekeeping may delete it
    .execute();
  await db.schema.createIndex('deliveries_due').on('deliveries').columns(['status', 'next_attempt_at']).execute();
  await db.schema.createIndex('deliveries_to').on('deliveries').column('to_address').execute();
}
