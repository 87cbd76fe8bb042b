/**
 * 005: the second round of hardening (issue 24). Tokens bound to the browser that earned them, emailed
 * links that can be sent again without a new one, a new phone confirmed by its code, Duo delivery and
 * stream caps in the database (every instance sees them), trial-link and invitation codes stored as
 * sha256.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { MigrationContext, SchemaDb } from '../schema.js';

/** sha256 hex of the text's UTF-8, as crypto/primitives.ts hashes codes (computed here: SQLite has no sha256). */
const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/** Replaces each code of a table's code_hash column (the clear code until now) by its sha256. */
async function hashCodes(db: SchemaDb, table: 'trial_links' | 'invitations'): Promise<void> {
  const { rows } = await sql<{ code: string }>`SELECT code_hash AS code FROM ${sql.table(table)}`.execute(db);
  for (const { code } of rows) await sql`UPDATE ${sql.table(table)} SET code_hash = ${sha256(code)} WHERE code_hash = ${code}`.execute(db);
}

export async function up({ db, big }: MigrationContext): Promise<void> {
  // sha256 (hex) of the HttpOnly nonce cookie of the browser a token or code was given to; NULL for
  // codes that travel by email or text only (reset links, activation keys).
  await db.schema.alterTable('login_tokens').addColumn('browser_hash', 'text').execute();
  await db.schema.alterTable('verification_codes').addColumn('browser_hash', 'text').execute();
  // A phone number typed during MFA setup: stored on the account only once a code sent to it came back.
  await db.schema.alterTable('login_tokens').addColumn('pending_phone', 'text').execute();
  // The number an SMS code was sent to (the code proves that number).
  await db.schema.alterTable('mfa_challenges').addColumn('phone', 'text').execute();
  // The live reset link / activation key, encrypted (AES-256-GCM, APP_SECRET), so that asking again
  // within the mail budget sends the same link instead of voiding the one the owner already has.
  await db.schema.alterTable('verification_codes').addColumn('sealed_code', 'text').execute();
  await db.schema.alterTable('division_activations').addColumn('sealed_key', 'text').execute();
  // Duo: the approval (or denial) written by whichever instance served the prompt; the instance that
  // holds the visitor's event stream polls for it.
  await db.schema.alterTable('mfa_challenges').addColumn('duo_message', 'text').execute();
  await db.schema.createIndex('mfa_challenges_channel').on('mfa_challenges').column('channel_id').execute();
  // Open Duo event streams, one row each, refreshed while open: the caps per channel and per address
  // count them across instances. A row not refreshed for a minute (its instance died) no longer counts.
  await db.schema
    .createTable('duo_streams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('channel_id', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('opened_at', big, (c) => c.notNull())
    .addColumn('seen_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  await db.schema.createIndex('duo_streams_channel').on('duo_streams').columns(['channel_id', 'seen_at']).execute();
  await db.schema.createIndex('duo_streams_address').on('duo_streams').columns(['address', 'seen_at']).execute();
  // Trial-link and invitation codes: sha256 at rest like every other code. A link that is no longer
  // valid keeps no invitee data.
  await db.schema.alterTable('trial_links').renameColumn('code', 'code_hash').execute();
  await hashCodes(db, 'trial_links');
  await sql`UPDATE trial_links SET company_name = NULL, first_name = NULL, last_name = NULL, email = NULL, language = NULL WHERE status <> 'VALID'`.execute(db);
  await db.schema.alterTable('invitations').renameColumn('code', 'code_hash').execute();
  await hashCodes(db, 'invitations');
  // Idle sessions are found by last_seen_at; the outbox is purged by age.
  await db.schema.createIndex('sessions_seen').on('sessions').column('last_seen_at').execute();
  await db.schema.createIndex('outbox_created').on('outbox').column('created_at').execute();
}
