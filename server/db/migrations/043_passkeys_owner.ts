/** 043: passkeys the owner controls (issue 35). docs/mfa.md "Passkeys the owner controls". */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

/**
 * A credential id names one credential of one account: passkeys.credential_id is unique already (040);
 * the security keys of MFA get a unique index too, and the code refuses an id the other table holds
 * (db/passkeys.ts credentialIdInUse, in the registration's transaction). Rows that break the rule can
 * only come from a crafted registration: of each id the oldest row stays, the later copies go.
 */
async function oneAccountPerCredential({ db }: MigrationContext): Promise<void> {
  await sql`DELETE FROM mfa_enrolments WHERE credential_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM mfa_enrolments older WHERE older.credential_id = mfa_enrolments.credential_id AND older.id < mfa_enrolments.id
  )`.execute(db);
  await sql`DELETE FROM mfa_enrolments WHERE credential_id IS NOT NULL AND EXISTS (
    SELECT 1 FROM passkeys p WHERE p.credential_id = mfa_enrolments.credential_id AND p.created_at <= mfa_enrolments.created_at
  )`.execute(db);
  await sql`DELETE FROM passkeys WHERE EXISTS (SELECT 1 FROM mfa_enrolments k WHERE k.credential_id = passkeys.credential_id)`.execute(db);
  await db.schema
    .createIndex('mfa_enrolments_credential')
    .on('mfa_enrolments')
    .column('credential_id')
    .unique()
    .where('credential_id', 'is not', null)
    .execute();
}

export async function up(m: MigrationContext): Promise<void> {
  const { db, big, id } = m;
  // The browser that added a passkey (its User-Agent, cut to 300 characters, as sessions keep it): the
  // owner tells their passkeys apart by it (browser and system) when they are listed after a reset.
  await db.schema.alterTable('passkeys').addColumn('user_agent', 'text').execute();
  // The passkey a session signed in with (NULL: a password, a security key, single sign-on). Removing a
  // passkey ends the sessions it made; "sign out everywhere" keeps the passkey of the session that asks.
  await db.schema.alterTable('sessions').addColumn('passkey_id', big).execute();
  await db.schema.createIndex('sessions_passkey').on('sessions').column('passkey_id').where('passkey_id', 'is not', null).execute();
  // The right a password reset earns to list and remove the account's passkeys: bound to the browser
  // that made the reset (sha256 of its fd_bind nonce), 15 minutes, a few uses (services/passkeyReview.ts).
  await id(db.schema.createTable('passkey_review_grants'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('uses_left', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('passkey_review_grants_browser').on('passkey_review_grants').column('browser_hash').execute();
  await oneAccountPerCredential(m);
}
