/**
 * 041: the security keys of MFA setup sign in as passkeys too (040): what their authenticator told at
 * registration is kept as for a passkey, and the same clone detection marks them. docs/mfa.md.
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db, big }: MigrationContext): Promise<void> {
  // The authenticator model (AAGUID; all zeros: not told), 'singleDevice' or 'multiDevice', and the
  // backup state (BS flag) at the last use. NULL: not a security key, or enrolled before 041.
  await db.schema.alterTable('mfa_enrolments').addColumn('aaguid', 'text').execute();
  await db.schema.alterTable('mfa_enrolments').addColumn('device_type', 'text').execute();
  await db.schema.alterTable('mfa_enrolments').addColumn('backed_up', 'integer').execute();
  // A counter that did not move forward: a suspected clone, refused from then on (passkey sign-in and
  // the second factor alike).
  await db.schema.alterTable('mfa_enrolments').addColumn('clone_suspected_at', big).execute();
}
