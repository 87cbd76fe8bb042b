/**
 * 021: single sign-on connections per tenant (issue 26). A connection is SAML 2.0 or OpenID Connect;
 * `settings` holds its public values as JSON, `secrets` its private ones (the SP signing key, the OIDC
 * client secret) sealed with the data key of APP_SECRET. A user signs in through the connection
 * sso_connection_id names (set by `npm run admin -- sso-assign`).
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

export async function up({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('sso_connections'))
    .addColumn('organization_id', big, (c) => c.notNull())
    .addColumn('protocol', 'text', (c) => c.notNull().check(sql`protocol IN ('saml', 'oidc')`))
    .addColumn('name', 'text', (c) => c.notNull()) // shown to visitors as idpName
    .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .addUniqueConstraint('sso_connections_organization_id_name_key', ['organization_id', 'name'])
    .execute();
  await db.schema
    .alterTable('users')
    .addColumn('sso_connection_id', big, (c) => c.references('sso_connections.id').onDelete('set null'))
    .execute();
  // Requests in flight: SAML AuthnRequest IDs (InResponseTo, node-saml's cache provider). A row is
  // removed when its response is accepted, so each request is answered once, by any instance.
  await db.schema
    .createTable('sso_requests')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
  // The demo OpenID provider's grants, codes and sessions (oidc-provider's adapter), shared by instances.
  await db.schema
    .createTable('oidc_provider_store')
    .addColumn('model', 'text', (c) => c.notNull())
    .addColumn('id', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('grant_id', 'text')
    .addColumn('user_code', 'text')
    .addColumn('uid', 'text')
    .addColumn('consumed_at', big)
    .addColumn('expires_at', big, (c) => c.notNull())
    .addPrimaryKeyConstraint('oidc_provider_store_pkey', ['model', 'id'])
    .execute();
  await db.schema.createIndex('oidc_provider_store_grant').on('oidc_provider_store').column('grant_id').execute();
  await db.schema.createIndex('oidc_provider_store_uid').on('oidc_provider_store').column('uid').execute();
}
