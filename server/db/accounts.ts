/**
 * Accounts (table users). First as sign-in reads and changes them (`UserRow`: the row as stored; a new
 * account, a password, a phone, activation), then as the operator sees them (`npm run admin -- users …`:
 * a list with filters, one account in full with its methods, single sign-on and sessions, the changes
 * of its state).
 */
import type { Queryable } from './data.js';

/** A users row as stored (flags are 0/1, times epoch ms, lists JSON text). */
export interface UserRow {
  id: number;
  uid: string;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_type: 'TECHNICIAN' | 'END_USER';
  state: 'active' | 'disabled' | 'suspended' | 'inactive';
  sysadmin: number;
  password_hash: string | null;
  must_set_password: number;
  phone: string | null;
  mfa_required: number;
  sso_state: 'NONE' | 'CONFIGURED' | 'NOT_CONFIGURED';
  sso_idp_name: string | null;
  /** The tenant's SSO connection the account signs in through (server/sso), or null. */
  sso_connection_id: number | null;
  ip_allow_list: string | null;
  moved_url: string | null;
  trial_expires_at: number | null;
  account_manager_name: string | null;
  account_manager_email: string | null;
  bot_check_always_fails: number;
  organization_id: number | null;
  client_id: number | null;
  company_name: string | null;
  language: string;
  features: string;
}

/** How an email is stored and looked up: trimmed, in lower case. */
export const normalizeEmail = (email: string): string => email.trim().toLowerCase();

export function findUserByEmail(q: Queryable, email: string): Promise<UserRow | undefined> {
  return q.get<UserRow>('SELECT * FROM users WHERE email = ?', [normalizeEmail(email)]);
}

export function findUserById(q: Queryable, id: number): Promise<UserRow | undefined> {
  return q.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);
}

/** Whether the database has any account (the demo seed fills only an empty one). */
export async function hasUsers(q: Queryable): Promise<boolean> {
  return ((await q.get<{ n: number }>('SELECT count(*) AS n FROM users'))?.n ?? 0) > 0;
}

/** The number a new tenant (organisation) gets: one more than the highest (1 is the demo tenant's). */
export async function nextOrganizationId(q: Queryable): Promise<number> {
  return (await q.get<{ id: number }>('SELECT COALESCE(MAX(organization_id), 1) + 1 AS id FROM users'))?.id ?? 2;
}

/** A new account; what is left out takes the column's default (no SSO, MFA required, no trial …). */
export interface NewUser {
  uid: string;
  email: string;
  firstName: string;
  lastName: string;
  userType: UserRow['user_type'];
  state: UserRow['state'];
  sysadmin: boolean;
  passwordHash: string | null;
  mustSetPassword?: boolean;
  phone?: string | null;
  mfaRequired?: boolean;
  ssoState?: UserRow['sso_state'];
  ssoIdpName?: string | null;
  ipAllowList?: readonly string[] | null;
  movedUrl?: string | null;
  trialExpiresAt?: number | null;
  accountManager?: { name: string; email: string } | null;
  botCheckAlwaysFails?: boolean;
  organizationId: number;
  clientId?: number | null;
  companyName: string;
  language: string;
  features: readonly string[];
  /** What a self-registration told about the business (JSON). */
  registrationProfile?: object | null;
  createdAt: number;
}

const INSERT_USER = `INSERT INTO users (uid, email, first_name, last_name, user_type, state, sysadmin, password_hash,
  must_set_password, phone, mfa_required, sso_state, sso_idp_name, ip_allow_list, moved_url, trial_expires_at,
  account_manager_name, account_manager_email, bot_check_always_fails, organization_id, client_id, company_name, language,
  features, registration_profile, created_at, updated_at)
  VALUES (@uid, @email, @first_name, @last_name, @user_type, @state, @sysadmin, @password_hash, @must_set_password, @phone,
  @mfa_required, @sso_state, @sso_idp_name, @ip_allow_list, @moved_url, @trial_expires_at, @account_manager_name,
  @account_manager_email, @bot_check_always_fails, @organization_id, @client_id, @company_name, @language, @features,
  @registration_profile, @t, @t)
  RETURNING id`;

/** Inserts the account; its id. A second account of one email fails on the UNIQUE index (isUniqueViolation). */
export async function insertUser(q: Queryable, u: NewUser): Promise<number> {
  const row = await q.get<{ id: number }>(INSERT_USER, {
    uid: u.uid,
    email: u.email,
    first_name: u.firstName,
    last_name: u.lastName,
    user_type: u.userType,
    state: u.state,
    sysadmin: u.sysadmin ? 1 : 0,
    password_hash: u.passwordHash,
    must_set_password: u.mustSetPassword ? 1 : 0,
    phone: u.phone ?? null,
    mfa_required: u.mfaRequired === false ? 0 : 1,
    sso_state: u.ssoState ?? 'NONE',
    sso_idp_name: u.ssoIdpName ?? null,
    ip_allow_list: u.ipAllowList ? JSON.stringify(u.ipAllowList) : null,
    moved_url: u.movedUrl ?? null,
    trial_expires_at: u.trialExpiresAt ?? null,
    account_manager_name: u.accountManager?.name ?? null,
    account_manager_email: u.accountManager?.email ?? null,
    bot_check_always_fails: u.botCheckAlwaysFails ? 1 : 0,
    organization_id: u.organizationId,
    client_id: u.clientId ?? null,
    company_name: u.companyName,
    language: u.language,
    features: JSON.stringify(u.features),
    registration_profile: u.registrationProfile ? JSON.stringify(u.registrationProfile) : null,
    t: u.createdAt,
  });
  if (!row) throw new Error(`inserting ${u.email} returned no id`);
  return Number(row.id);
}

/** A new password (its hash): the one the account must set is set. */
export async function setPasswordHash(q: Queryable, userId: number, hash: string, now: number): Promise<void> {
  await q.run('UPDATE users SET password_hash = ?, must_set_password = 0, updated_at = ? WHERE id = ?', [hash, now, userId]);
}

/** The same password hashed again (a stronger cost); only while the stored hash is still `old` (no change of password is undone). */
export async function rehashPassword(q: Queryable, userId: number, old: string, hash: string): Promise<void> {
  await q.run('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?', [hash, userId, old]);
}

/** An account waiting for activation (state inactive) becomes active; other states stay. */
export async function activateUser(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run("UPDATE users SET state = 'active', updated_at = ? WHERE id = ? AND state = 'inactive'", [now, userId]);
}

export async function setPhone(q: Queryable, userId: number, phone: string, now: number): Promise<void> {
  await q.run('UPDATE users SET phone = ?, updated_at = ? WHERE id = ?', [phone, now, userId]);
}

// ---- the operator's view ----------------------------------------------------------------------

export interface AccountRow {
  id: number;
  email: string;
  name: string;
  userType: string;
  state: string;
  sysadmin: boolean;
  organizationId: number | null;
  /** Disabled because its tenant was (tenants disable): enabling the tenant gives it back. */
  disabledWithTenant: boolean;
  createdAt: number;
}

interface Row {
  id: number;
  email: string;
  first_name: string | null;
  last_name: string | null;
  user_type: string;
  state: string;
  sysadmin: number;
  organization_id: number | null;
  disabled_with_tenant: number;
  created_at: number;
}

const COLUMNS = 'id, email, first_name, last_name, user_type, state, sysadmin, organization_id, disabled_with_tenant, created_at';

const fromRow = (r: Row): AccountRow => ({
  id: r.id,
  email: r.email,
  name: [r.first_name, r.last_name].filter(Boolean).join(' '),
  userType: r.user_type,
  state: r.state,
  sysadmin: r.sysadmin === 1,
  organizationId: r.organization_id,
  disabledWithTenant: r.disabled_with_tenant === 1,
  createdAt: r.created_at,
});

export async function listAccounts(q: Queryable, filter: { organizationId?: number; state?: string; limit: number }): Promise<AccountRow[]> {
  const where: string[] = [];
  const params: Array<string | number> = [];
  if (filter.organizationId !== undefined) {
    where.push('organization_id = ?');
    params.push(filter.organizationId);
  }
  if (filter.state !== undefined) {
    where.push('state = ?');
    params.push(filter.state);
  }
  const rows = await q.all<Row>(
    `SELECT ${COLUMNS} FROM users ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY organization_id, id LIMIT ${Number(filter.limit)}`,
    params,
  );
  return rows.map(fromRow);
}

export async function findAccount(q: Queryable, email: string): Promise<AccountRow | undefined> {
  const row = await q.get<Row>(`SELECT ${COLUMNS} FROM users WHERE email = ?`, [email]);
  return row && fromRow(row);
}

export interface AccountDetails {
  /** MFA methods in their order (TOTP, SMSOTP, DUO, U2F_TOKEN …). */
  methods: string[];
  passkeys: number;
  recoveryCodesLeft: number;
  sessions: number;
  /** The SSO connection's name when the account signs in through one. */
  sso: string | null;
}

export async function accountDetails(q: Queryable, userId: number, now: number): Promise<AccountDetails> {
  const methods = await q.all<{ type: string }>('SELECT type FROM mfa_enrolments WHERE user_id = ? ORDER BY position', [userId]);
  const counts = await q.get<{ passkeys: number; codes: number; sessions: number; sso: string | null }>(
    `SELECT (SELECT count(*) FROM passkeys WHERE user_id = @id) AS passkeys,
       (SELECT count(*) FROM recovery_codes WHERE user_id = @id AND used_at IS NULL) AS codes,
       (SELECT count(*) FROM sessions WHERE user_id = @id AND expires_at > @now) AS sessions,
       (SELECT c.name FROM users u JOIN sso_connections c ON c.id = u.sso_connection_id WHERE u.id = @id) AS sso`,
    { id: userId, now },
  );
  return {
    methods: methods.map((m) => m.type),
    passkeys: counts?.passkeys ?? 0,
    recoveryCodesLeft: counts?.codes ?? 0,
    sessions: counts?.sessions ?? 0,
    sso: counts?.sso ?? null,
  };
}

/** Sets the account's state ('active' also clears the tenant's mark); true when it changed. */
export async function setAccountState(t: Queryable, userId: number, state: 'active' | 'disabled', now: number): Promise<boolean> {
  const { changes } = await t.run('UPDATE users SET state = ?, disabled_with_tenant = 0, updated_at = ? WHERE id = ? AND state <> ?', [
    state,
    now,
    userId,
    state,
  ]);
  return changes === 1;
}

/** Deletes the account (its codes, sessions, methods and passkeys go with it: ON DELETE CASCADE). */
export async function deleteAccount(t: Queryable, userId: number): Promise<boolean> {
  return (await t.run('DELETE FROM users WHERE id = ?', [userId])).changes === 1;
}

/** Ends what lets the account act now: its sessions and its sign-ins in progress (a disabled account also fails every check of its state). */
export async function endSessions(t: Queryable, userId: number, now: number): Promise<number> {
  await t.run('UPDATE login_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
  return (await t.run('DELETE FROM sessions WHERE user_id = ?', [userId])).changes;
}
