/**
 * Tenants (organisations: users.organization_id) as the operator sees them, and a tenant's own
 * settings (table tenant_settings, migrations 040 and 050): how long a browser stays trusted, the email
 * sender, Twilio account and Duo application used in preference to the deployment's (their credentials
 * sealed, JSON, like SSO keys), and the operator's switch that disables a whole tenant. The SQL of
 * `npm run admin -- tenants …`, `tenant-settings`, of trusted browsers, and of delivery and Duo
 * reading a tenant's own settings.
 */
import { normalizeEmail } from './accounts.js';
import type { Queryable } from './data.js';

export interface TenantRow {
  organizationId: number;
  /** The company name of its users (create-tenant's --name). */
  name: string | null;
  users: number;
  active: number;
  disabledAt: number | null;
}

/** Every tenant with users, by number. */
export async function listTenants(q: Queryable): Promise<TenantRow[]> {
  const rows = await q.all<{ id: number; name: string | null; users: number; active: number; disabled_at: number | null }>(
    `SELECT u.organization_id AS id, MIN(u.company_name) AS name, count(*) AS users,
       sum(CASE WHEN u.state = 'active' THEN 1 ELSE 0 END) AS active, MAX(s.disabled_at) AS disabled_at
     FROM users u LEFT JOIN tenant_settings s ON s.organization_id = u.organization_id
     WHERE u.organization_id IS NOT NULL GROUP BY u.organization_id ORDER BY u.organization_id`,
  );
  return rows.map((r) => ({ organizationId: r.id, name: r.name, users: r.users, active: r.active, disabledAt: r.disabled_at }));
}

export async function getTenant(q: Queryable, organizationId: number): Promise<TenantRow | undefined> {
  return (await listTenants(q)).find((t) => t.organizationId === organizationId);
}

/** Whether any user belongs to the organisation (an organisation exists through its users). */
export async function organizationExists(q: Queryable, organizationId: number): Promise<boolean> {
  return (await q.get('SELECT id FROM users WHERE organization_id = ? LIMIT 1', [organizationId])) !== undefined;
}

/** The company name of an organisation's first user; undefined when it has no users. */
export async function organizationName(q: Queryable, organizationId: number): Promise<{ name: string | null } | undefined> {
  return q.get<{ name: string | null }>('SELECT company_name AS name FROM users WHERE organization_id = ? ORDER BY id LIMIT 1', [organizationId]);
}

/** The next organisation number (in a serializable transaction: two at once cannot get one number). */
export async function nextOrganizationId(t: Queryable): Promise<number> {
  return (await t.get<{ id: number }>('SELECT COALESCE(MAX(organization_id), 1) + 1 AS id FROM users'))?.id ?? 2;
}

/** A user the operator makes in an organisation (create-tenant's administrator, create-user). */
export interface NewTenantUser {
  uid: string;
  email: string;
  firstName: string | null;
  lastName: string | null;
  userType: string;
  sysadmin: boolean;
  passwordHash: string;
  mustSetPassword: boolean;
  phone: string | null;
  mfaRequired: boolean;
  organizationId: number;
  companyName: string | null;
  language: string;
  /** JSON array of feature flags. */
  features: string;
}

/** Inserts an active user; returns its id (an email taken already is a unique violation). */
export async function insertTenantUser(t: Queryable, u: NewTenantUser, now: number): Promise<number> {
  const row = await t.get<{ id: number }>(
    `INSERT INTO users (uid, email, first_name, last_name, user_type, state, sysadmin, password_hash, must_set_password, phone,
      mfa_required, organization_id, company_name, language, features, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      u.uid,
      u.email,
      u.firstName,
      u.lastName,
      u.userType,
      u.sysadmin ? 1 : 0,
      u.passwordHash,
      u.mustSetPassword ? 1 : 0,
      u.phone,
      u.mfaRequired ? 1 : 0,
      u.organizationId,
      u.companyName,
      u.language,
      u.features,
      now,
      now,
    ],
  );
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return row.id;
}

/** The sealed and plain settings of a tenant's own delivery and Duo (no row: none). */
export interface TenantOwnSettings {
  mailFrom: string | null;
  /** Sealed JSON of its Twilio account. */
  twilio: string | null;
  /** Sealed JSON of its Duo application. */
  duo: string | null;
}

export async function tenantOwnSettings(q: Queryable, organizationId: number | null): Promise<TenantOwnSettings> {
  const none = { mailFrom: null, twilio: null, duo: null };
  if (organizationId === null) return none;
  const row = await q.get<{ mail_from: string | null; twilio: string | null; duo: string | null }>(
    'SELECT mail_from, twilio, duo FROM tenant_settings WHERE organization_id = ?',
    [organizationId],
  );
  return row ? { mailFrom: row.mail_from, twilio: row.twilio, duo: row.duo } : none;
}

/** Sets some of a tenant's own settings (a key absent: unchanged; null: removed). */
export async function setTenantOwnSettings(q: Queryable, organizationId: number, change: Partial<TenantOwnSettings>, now: number): Promise<void> {
  const columns = (['mailFrom', 'twilio', 'duo'] as const).filter((k) => change[k] !== undefined);
  if (columns.length === 0) return;
  const name = { mailFrom: 'mail_from', twilio: 'twilio', duo: 'duo' } as const;
  await q.run(
    `INSERT INTO tenant_settings (organization_id, ${columns.map((c) => name[c]).join(', ')}, updated_at)
     VALUES (?, ${columns.map(() => '?').join(', ')}, ?)
     ON CONFLICT (organization_id) DO UPDATE SET ${columns.map((c) => `${name[c]} = excluded.${name[c]}`).join(', ')}, updated_at = excluded.updated_at`,
    [organizationId, ...columns.map((c) => change[c] ?? null), now],
  );
}

/** The tenant's number of days a browser stays trusted (services/trustedDevices.ts), or undefined without a settings row. */
export async function tenantTrustedDeviceDays(q: Queryable, organizationId: number): Promise<number | undefined> {
  const row = await q.get<{ days: number }>('SELECT trusted_device_days AS days FROM tenant_settings WHERE organization_id = ?', [organizationId]);
  return row?.days;
}

/** Sets the tenant's number of days (npm run admin -- tenant-settings). */
export async function setTrustedDeviceDays(q: Queryable, organizationId: number, days: number, now: number): Promise<void> {
  await q.run(
    `INSERT INTO tenant_settings (organization_id, trusted_device_days, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET trusted_device_days = excluded.trusted_device_days, updated_at = excluded.updated_at`,
    [organizationId, days, now],
  );
}

/** The organisation of the user with this email (messages to them use their tenant's sender), or null. */
export async function organizationOfEmail(q: Queryable, email: string): Promise<number | null> {
  const row = await q.get<{ organization_id: number | null }>('SELECT organization_id FROM users WHERE email = ?', [normalizeEmail(email)]);
  return row?.organization_id ?? null;
}

/**
 * Disables a tenant: the flag, and each of its active users disabled and marked (so that enabling gives
 * back exactly those). Returns the users disabled now, whose sessions and tokens the caller ends.
 */
export async function disableTenant(t: Queryable, organizationId: number, now: number): Promise<number[]> {
  await t.run(
    `INSERT INTO tenant_settings (organization_id, disabled_at, updated_at) VALUES (?, ?, ?)
     ON CONFLICT (organization_id) DO UPDATE SET disabled_at = excluded.disabled_at, updated_at = excluded.updated_at`,
    [organizationId, now, now],
  );
  const rows = await t.all<{ id: number }>(
    `UPDATE users SET state = 'disabled', disabled_with_tenant = 1, updated_at = ? WHERE organization_id = ? AND state = 'active' RETURNING id`,
    [now, organizationId],
  );
  return rows.map((r) => r.id);
}

/** Enables a tenant: the users its disabling disabled are active again (those disabled on their own stay so). Returns how many. */
export async function enableTenant(t: Queryable, organizationId: number, now: number): Promise<number> {
  await t.run('UPDATE tenant_settings SET disabled_at = NULL, updated_at = ? WHERE organization_id = ?', [now, organizationId]);
  const { changes } = await t.run(
    `UPDATE users SET state = 'active', disabled_with_tenant = 0, updated_at = ? WHERE organization_id = ? AND disabled_with_tenant = 1`,
    [now, organizationId],
  );
  return changes;
}

/** Deletes a tenant: its users (their codes, sessions, methods go with them), SSO connections and settings. Returns how many users. */
export async function deleteTenant(t: Queryable, organizationId: number): Promise<number> {
  const { changes } = await t.run('DELETE FROM users WHERE organization_id = ?', [organizationId]);
  await t.run('DELETE FROM sso_connections WHERE organization_id = ?', [organizationId]);
  await t.run('DELETE FROM tenant_settings WHERE organization_id = ?', [organizationId]);
  return changes;
}

/** Whether the tenant is disabled (its users cannot be enabled one by one meanwhile). */
export async function tenantDisabled(q: Queryable, organizationId: number | null): Promise<boolean> {
  if (organizationId === null) return false;
  const row = await q.get<{ disabled_at: number | null }>('SELECT disabled_at FROM tenant_settings WHERE organization_id = ?', [organizationId]);
  return row?.disabled_at != null;
}
