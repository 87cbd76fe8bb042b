/**
 * Single sign-on connections (table sso_connections, migration 021) and the users' side of them
 * (users.sso_connection_id, sso_state, sso_idp_name). Rows as stored: settings JSON, secrets sealed;
 * server/sso/connections.ts parses and unseals them.
 */
import type { Queryable } from './data.js';

export interface ConnectionRow {
  id: number;
  organization_id: number;
  protocol: 'saml' | 'oidc';
  name: string;
  is_enabled: number;
  settings: string;
  /** Sealed JSON; null in listings. */
  secrets: string | null;
}

export interface NewConnectionRow {
  organizationId: number;
  protocol: 'saml' | 'oidc';
  name: string;
  settingsJson: string;
  sealedSecrets: string;
}

/** Inserts an enabled connection; returns its id (a second name in one organisation is a unique violation). */
export async function insertConnection(t: Queryable, row: NewConnectionRow, now: number): Promise<number> {
  const inserted = await t.get<{ id: number }>(
    `INSERT INTO sso_connections (organization_id, protocol, name, is_enabled, settings, secrets, created_at, updated_at)
     VALUES (?, ?, ?, 1, ?, ?, ?, ?) RETURNING id`,
    [row.organizationId, row.protocol, row.name, row.settingsJson, row.sealedSecrets, now, now],
  );
  if (!inserted) throw new Error('INSERT … RETURNING gave no id');
  return inserted.id;
}

export async function connectionRow(q: Queryable, id: number): Promise<ConnectionRow | undefined> {
  return q.get<ConnectionRow>('SELECT id, organization_id, protocol, name, is_enabled, settings, secrets FROM sso_connections WHERE id = ?', [id]);
}

/** Every connection (of one organisation, when given) by id, without secrets, with the number of its users. */
export async function connectionRows(q: Queryable, organizationId?: number): Promise<Array<ConnectionRow & { users: number }>> {
  return q.all<ConnectionRow & { users: number }>(
    `SELECT c.id, c.organization_id, c.protocol, c.name, c.is_enabled, c.settings, NULL AS secrets,
       (SELECT count(*) FROM users u WHERE u.sso_connection_id = c.id) AS users
     FROM sso_connections c ${organizationId === undefined ? '' : 'WHERE c.organization_id = ?'} ORDER BY c.id`,
    organizationId === undefined ? [] : [organizationId],
  );
}

/** Replaces a connection's settings (JSON); whether the row existed. */
export async function updateConnectionSettings(q: Queryable, id: number, settingsJson: string, now: number): Promise<boolean> {
  const { changes } = await q.run('UPDATE sso_connections SET settings = ?, updated_at = ? WHERE id = ?', [settingsJson, now, id]);
  return changes === 1;
}

/** Its users back to passwords (sso_state NONE), then the row deleted. Returns the users changed, or undefined when there was no such connection. */
export async function deleteConnection(t: Queryable, id: number, now: number): Promise<number | undefined> {
  const users = await t.run(`UPDATE users SET sso_state = 'NONE', sso_idp_name = NULL, sso_connection_id = NULL, updated_at = ? WHERE sso_connection_id = ?`, [
    now,
    id,
  ]);
  const { changes } = await t.run('DELETE FROM sso_connections WHERE id = ?', [id]);
  return changes === 1 ? users.changes : undefined;
}

/** Points users of the connection's organisation at it (one by email, or all), showing its name as idpName. Returns how many. */
export async function assignUsers(
  t: Queryable,
  connection: { id: number; name: string; organizationId: number },
  email: string | undefined,
  now: number,
): Promise<number> {
  const [where, params] = email === undefined ? ['', []] : ['AND email = ?', [email]];
  const { changes } = await t.run(
    `UPDATE users SET sso_state = 'CONFIGURED', sso_idp_name = ?, sso_connection_id = ?, updated_at = ? WHERE organization_id = ? ${where}`,
    [connection.name, connection.id, now, connection.organizationId, ...params],
  );
  return changes;
}

export interface SsoUserRow {
  id: number;
  email: string;
  state: string;
  organization_id: number | null;
}

/** The user with this email who signs in through this connection of this organisation, if any. */
export async function ssoUser(q: Queryable, connection: { id: number; organizationId: number }, email: string): Promise<SsoUserRow | undefined> {
  return q.get<SsoUserRow>(
    `SELECT id, email, state, organization_id FROM users WHERE email = ? AND sso_connection_id = ? AND organization_id = ? AND sso_state = 'CONFIGURED'`,
    [email, connection.id, connection.organizationId],
  );
}
