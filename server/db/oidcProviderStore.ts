/**
 * The demo OpenID provider's storage (table oidc_provider_store, migration 021): oidc-provider's
 * grants, codes and sessions, rows keyed by (model, id) that expire (server/sso/demoOidcProvider.ts).
 */
import type { Queryable } from './data.js';

export interface ProviderRow {
  model: string;
  id: string;
  payload: string;
  grantId: string | null;
  userCode: string | null;
  uid: string | null;
  expiresAt: number;
}

export async function upsertProviderRow(q: Queryable, row: ProviderRow): Promise<void> {
  await q.run(
    `INSERT INTO oidc_provider_store (model, id, payload, grant_id, user_code, uid, consumed_at, expires_at) VALUES (@model, @id, @payload, @grant, @userCode, @uid, NULL, @expires)
     ON CONFLICT (model, id) DO UPDATE SET payload = excluded.payload, grant_id = excluded.grant_id, user_code = excluded.user_code, uid = excluded.uid, expires_at = excluded.expires_at`,
    { model: row.model, id: row.id, payload: row.payload, grant: row.grantId, userCode: row.userCode, uid: row.uid, expires: row.expiresAt },
  );
}

/** A row of the model that has not expired, found by its id, user code or interaction uid. */
export async function findProviderRow(
  q: Queryable,
  model: string,
  column: 'id' | 'user_code' | 'uid',
  value: string,
  now: number,
): Promise<{ payload: string; consumed_at: number | null } | undefined> {
  return q.get<{ payload: string; consumed_at: number | null }>(
    `SELECT payload, consumed_at FROM oidc_provider_store WHERE model = ? AND ${column} = ? AND expires_at > ?`,
    [model, value, now],
  );
}

export async function consumeProviderRow(q: Queryable, model: string, id: string, now: number): Promise<void> {
  await q.run('UPDATE oidc_provider_store SET consumed_at = ? WHERE model = ? AND id = ?', [now, model, id]);
}

export async function deleteProviderRow(q: Queryable, model: string, id: string): Promise<void> {
  await q.run('DELETE FROM oidc_provider_store WHERE model = ? AND id = ?', [model, id]);
}

export async function deleteProviderGrant(q: Queryable, grantId: string): Promise<void> {
  await q.run('DELETE FROM oidc_provider_store WHERE grant_id = ?', [grantId]);
}

export async function purgeProviderRows(q: Queryable, now: number): Promise<number> {
  return (await q.run('DELETE FROM oidc_provider_store WHERE expires_at < ?', [now])).changes;
}
