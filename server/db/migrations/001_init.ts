/**
 * 001: the initial data model of the reference server. Times are Unix epoch milliseconds; secrets and
 * tokens are stored as sha256 hex, never in clear.
 */
import { sql } from 'kysely';
import type { MigrationContext } from '../schema.js';

async function users({ db, big, ciText, nocase, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('users'))
    .addColumn('uid', 'text', (c) => c.notNull().unique())
    .addColumn('email', ciText, (c) => nocase(c.notNull().unique()))
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('user_type', 'text', (c) => c.notNull().check(sql`user_type IN ('TECHNICIAN', 'END_USER')`))
    .addColumn('state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('active')
        .check(sql`state IN ('active', 'disabled', 'suspended', 'inactive')`),
    )
    .addColumn('sysadmin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('password_hash', 'text') // NULL: no password yet
    .addColumn('must_set_password', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('phone', 'text') // E.164
    .addColumn('mfa_required', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('sso_state', 'text', (c) =>
      c
        .notNull()
        .defaultTo('NONE')
        .check(sql`sso_state IN ('NONE', 'CONFIGURED', 'NOT_CONFIGURED')`),
    )
    .addColumn('sso_idp_name', 'text')
    .addColumn('ip_allow_list', 'text') // JSON array of IPs / IPv4 CIDRs; NULL: any
    .addColumn('moved_url', 'text') // may contain {PORT}
    .addColumn('trial_expires_at', big)
    .addColumn('account_manager_name', 'text')
    .addColumn('account_manager_email', 'text')
    .addColumn('bot_check_always_fails', 'integer', (c) => c.notNull().defaultTo(0)) // demo: captcha-fail@
    .addColumn('organization_id', big)
    .addColumn('client_id', big)
    .addColumn('company_name', 'text')
    .addColumn('language', 'text', (c) => c.notNull().defaultTo('en-us'))
    .addColumn('features', 'text', (c) => c.notNull().defaultTo('[]')) // JSON array of feature flags
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('updated_at', big, (c) => c.notNull())
    .execute();
}

async function mfa({ db, big, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('mfa_enrolments'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull().check(sql`type IN ('U2F_TOKEN', 'TOTP', 'DUO', 'SMSOTP')`))
    .addColumn('position', 'integer', (c) => c.notNull()) // 0 = PRIMARY, 1 = SECONDARY …
    .addColumn('secret', 'text') // TOTP base32 secret
    .addColumn('phone', 'text') // SMSOTP phone (E.164)
    .addColumn('credential_id', 'text') // U2F_TOKEN credential id (base64url)
    .addColumn('public_key', 'text') // U2F_TOKEN COSE public key (base64url)
    .addColumn('sign_count', big, (c) => c.notNull().defaultTo(0))
    .addColumn('device_name', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addUniqueConstraint('mfa_enrolments_user_id_position_key', ['user_id', 'position'])
    .execute();
  // Tokens issued by a sign-in step: MFA (loginToken) and SETUP_MFA (userToken).
  await db.schema
    .createTable('login_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose IN ('MFA', 'SETUP_MFA')`))
    .addColumn('mfa_type', 'text') // the method currently asked for
    .addColumn('stay_signed_in', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('return_to', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
  // One challenge per code sent (SMS) or prompt opened (DUO, WebAuthn).
  await id(db.schema.createTable('mfa_challenges'))
    .addColumn('login_token_hash', 'text', (c) => c.references('login_tokens.token_hash').onDelete('cascade'))
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text') // SMS code (sha256)
    .addColumn('channel_id', 'text') // DUO realtime channel
    .addColumn('challenge', 'text') // WebAuthn challenge (base64url)
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
}

async function codesAndSessions({ db, big, ciText, nocase, id }: MigrationContext): Promise<void> {
  // Codes that lead to /resetPassword/{code} and friends.
  await db.schema
    .createTable('verification_codes')
    .addColumn('code_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull().check(sql`purpose IN ('SETUP_PASSWORD', 'RESET_PASSWORD', 'RESET_SMS', 'INVITATION')`))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
  await id(db.schema.createTable('sessions'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('persistent', 'integer', (c) => c.notNull().defaultTo(0)) // staySignedIn
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('last_seen_at', big, (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();
  await db.schema
    .createTable('expired_trial_sessions')
    .addColumn('key_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', big, (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', big, (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('request', 'text') // EXTENSION | PURCHASE | CALL once acted upon
    .execute();
  // Consecutive failed sign-ins per email, unknown ones too (dropped by 004: counters).
  await db.schema
    .createTable('login_failures')
    .addColumn('email', ciText, (c) => nocase(c.primaryKey()))
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('last_failed_at', big, (c) => c.notNull())
    .execute();
  // Single-use signed tokens already consumed (bot check, IdP requests).
  await db.schema
    .createTable('used_tokens')
    .addColumn('jti', 'text', (c) => c.primaryKey())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', big, (c) => c.notNull())
    .execute();
}

async function outboxAndLinks({ db, big, ciText, nocase, id }: MigrationContext): Promise<void> {
  await id(db.schema.createTable('outbox'))
    .addColumn('channel', 'text', (c) => c.notNull().check(sql`channel IN ('email', 'sms')`))
    .addColumn('to_address', 'text', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('text', 'text', (c) => c.notNull())
    .addColumn('link', 'text')
    .addColumn('code', 'text')
    .addColumn('created_at', big, (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('trial_links')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('VALID', 'EXPIRED', 'USED', 'REPLACED')`))
    .addColumn('company_name', 'text')
    .addColumn('first_name', 'text')
    .addColumn('last_name', 'text')
    .addColumn('email', 'text')
    .addColumn('language', 'text')
    .addColumn('sales_representative', 'text')
    .execute();
  await db.schema
    .createTable('invitations')
    .addColumn('code', 'text', (c) => c.primaryKey())
    .addColumn('email', ciText, (c) => nocase(c.notNull()))
    .addColumn('user_id', big, (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('auth_type', 'text', (c) => c.notNull().check(sql`auth_type IN ('NATIVE', 'SSO')`))
    .addColumn('expires_at', big, (c) => c.notNull())
    .addColumn('used_at', big)
    .execute();
  await db.schema
    .createTable('division_activations')
    .addColumn('activation_key', 'text', (c) => c.primaryKey())
    .addColumn('division_name', 'text', (c) => c.notNull())
    .addColumn('activated_at', big)
    .execute();
  await db.schema
    .createTable('branding')
    .addColumn('hostname', ciText, (c) => nocase(c.primaryKey()))
    .addColumn('is_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('theme', 'text')
    .addColumn('browser_name', 'text')
    .addColumn('browser_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('login_logo', 'text')
    .addColumn('browser_icon', 'text')
    .execute();
}

export async function up(m: MigrationContext): Promise<void> {
  if (m.engine === 'postgres') await sql`CREATE EXTENSION IF NOT EXISTS citext`.execute(m.db);
  await users(m);
  await mfa(m);
  await codesAndSessions(m);
  await outboxAndLinks(m);
}
