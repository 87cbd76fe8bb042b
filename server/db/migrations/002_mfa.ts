/**
 * 002: MFA: attempt limits per login/setup token, the authenticator-app secret offered during setup,
 * and the last TOTP time step accepted per enrolment (a code is good once).
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db, big }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('login_tokens')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('login_tokens').addColumn('pending_secret', 'text').execute();
  await db.schema.alterTable('mfa_enrolments').addColumn('totp_last_step', big).execute();
}
