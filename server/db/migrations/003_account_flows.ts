/**
 * 003: account flows. Division activation keys created by registration and 'Resend Activation' belong
 * to a user (activating the key activates that user) and expire; the seeded demo keys have no user and
 * no expiry. Registration keeps the optional 'Tell us about yourself' answers.
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db, big }: MigrationContext): Promise<void> {
  await db.schema
    .alterTable('division_activations')
    .addColumn('user_id', big, (c) => c.references('users.id').onDelete('cascade'))
    .execute();
  await db.schema.alterTable('division_activations').addColumn('expires_at', big).execute();
  // JSON {businessType, teamSize, products}
  await db.schema.alterTable('users').addColumn('registration_profile', 'text').execute();
}
