/**
 * Users as the operator sees them (`npm run admin -- users …`): a list with filters, one account in
 * full (its methods, single sign-on, sessions), and the changes of its state.
 */
import type { Queryable } from './data.js';

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
