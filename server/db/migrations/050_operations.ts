/**
 * 050: the operator's day (issue 36, docs/deploy.md). A tenant's own email sender, Twilio account and
 * Duo application (tenant-settings), used in preference to the deployment's: the credentials sealed
 * like SSO keys (JSON, AES-GCM under APP_SECRET); a tenant disabled by the operator (tenants disable),
 * its active users disabled with it and marked so that enabling it gives back exactly those.
 */
import type { MigrationContext } from '../schema.js';

export async function up({ db, big }: MigrationContext): Promise<void> {
  await db.schema.alterTable('tenant_settings').addColumn('mail_from', 'text').execute();
  await db.schema.alterTable('tenant_settings').addColumn('twilio', 'text').execute();
  await db.schema.alterTable('tenant_settings').addColumn('duo', 'text').execute();
  await db.schema.alterTable('tenant_settings').addColumn('disabled_at', big).execute();
  await db.schema
    .alterTable('users')
    .addColumn('disabled_with_tenant', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  // The tenant a message is for (its sender and Twilio account), and the From address it was given.
  await db.schema.alterTable('deliveries').addColumn('organization_id', big).execute();
  await db.schema.alterTable('deliveries').addColumn('from_address', 'text').execute();
}
