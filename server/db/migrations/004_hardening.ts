/**
 * 004: hardening (issue 15). Counters shared by every instance, secrets shared by demo instances, one
 * live text-reset code per account with an attempt count, per-session MFA attempts, and the public base
 * URL of each branded host (links in emails never come from request headers).
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db, big }: MigrationContext): Promise<void> {
  // Fixed-window counters (failed sign-ins, wrong codes, texts sent, per-address limits), updated
  // atomically in one statement or transaction so that several instances agree.
  await db.schema
    .createTable('counters')
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('window_start', big, (c) => c.notNull())
    .addColumn('count', 'integer', (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('counters_pkey', ['scope', 'key'])
    .execute();
  // Demo mode only: secrets generated once and shared by every instance on this database. Outside
  // demo mode the secrets come from the environment and this table stays empty.
  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  // Wrong tries against a code (text-reset security codes die after 5).
  await db.schema
    .alterTable('verification_codes')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.createIndex('verification_codes_user').on('verification_codes').columns(['user_id', 'purpose']).execute();
  // Wrong codes typed into the Verify MFA modal during this session.
  await db.schema
    .alterTable('sessions')
    .addColumn('mfa_failures', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // Public base URL of a branded host ('{PORT}' is replaced by the server's port), for links in emails.
  await db.schema.alterTable('branding').addColumn('public_url', 'text').execute();
  // Replaced by counters (scope 'login').
  await db.schema.dropTable('login_failures').execute();
}
