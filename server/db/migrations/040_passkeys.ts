/** 040: passkeys, recovery codes and trusted browsers (issue 28). docs/mfa.md describes them. */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

/**
 * WebAuthn credentials that sign in alone (discoverable where the authenticator can, user verification
 * required). The security keys of MFA stay in mfa_enrolments; both are accepted by passkey sign-in. A
 * counter that goes backwards marks the credential as a suspected clone: refused from then on.
 */
async function passkeys({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('passkeys'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('credential_id', 'text', (c) => c.notNull().unique()) // base64url
    .addColumn('public_key', 'text', (c) => c.notNull()) // COSE key, base64url
    .addColumn('sign_count', big, (c) => c.notNull().defaultTo(0))
    .addColumn('aaguid', 'text', (c) => c.notNull()) // the authenticator model (all zeros: not told)
    .addColumn('device_type', 'text', (c) => c.notNull().check(sql`device_type IN ('singleDevice', 'multiDevice')`))
    .addColumn('backed_up', 'integer', (c) => c.notNull().defaultTo(0)) // backup state (BS flag) at the last use
    .addColumn('transports', 'text') // JSON array of the authenticator's transports
    .addColumn('discoverable', 'integer') // credProps.rk: 1, 0, or NULL when not told
    .addColumn('name', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('last_used_at', big)
    .addColumn('clone_suspected_at', big)
    .execute();
  await db.schema.createIndex('passkeys_user').on('passkeys').column('user_id').execute();
  // The enrolment offer after sign-in: "Not now" (ask again after ask_again_at) or "Don't ask again"
  // (ask_again_at NULL), per account.
  await db.schema
    .createTable('passkey_offers')
    .addColumn('user_id', big, (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('declined_at', big, (c) => c.notNull())
    .addColumn('ask_again_at', big)
    .execute();
}

async function recoveryCodes({ db, big, id }: MigrationContext): Promise<void> {
  // 10 per account, each single use, stored as an HMAC-SHA256 (hex) keyed by the server secret. A new set replaces the old one.
  await id(db.schema.createTable('recovery_codes'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
  await db.schema.createIndex('recovery_codes_user').on('recovery_codes').columns(['user_id', 'code_hash']).execute();
  // The right to be shown a new set of codes once: earned by setting up a first factor or by signing in
  // with a recovery code, bound to that browser (sha256 of its nonce cookie), short-lived.
  await id(db.schema.createTable('recovery_code_grants'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('browser_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
  await db.schema.createIndex('recovery_code_grants_user').on('recovery_code_grants').column('user_id').execute();
}

async function trustedDevices({ db, big, id }: MigrationContext): Promise<void> {
  // Browsers where the second factor is not asked again: the signed __Host- cookie names the row (sha256
  // of its device secret). A password change, an MFA change or "sign out everywhere" revokes every row.
  await id(db.schema.createTable('trusted_devices'))
    .addColumn('device_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('revoked_at', big)
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('trusted_devices_user').on('trusted_devices').column('user_id').execute();
  // Settings of a tenant (an organisation); no row: the defaults.
  await db.schema
    .createTable('tenant_settings')
    .addColumn('organization_id', big, (c) => c.primaryKey())
    .addColumn('trusted_device_days', 'integer', (c) =>
      c
        .notNull()
        .defaultTo(30)
        .check(sql`trusted_device_days BETWEEN 0 AND 365`),
    )
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
  // The visitor ticked "Don't ask again on this device" at /mfa for this sign-in.
  await db.schema
    .alterTable('login_tokens')
    .addColumn('trust_device', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
}

export async function up(m: MigrationContext): Promise<void> {
  await passkeys(m);
  await recoveryCodes(m);
  await trustedDevices(m);
}
