/**
 * Sign-in requests in flight (table sso_requests, migration 021): the state of a SAML, OpenID Connect
 * or Duo round trip, and node-saml's AuthnRequest IDs, each a row read once (server/sso/requests.ts).
 */
import type { Queryable } from './data.js';

export interface RequestRow {
  key: string;
  /** JSON, or node-saml's own text. */
  value: string;
  createdAt: number;
  expiresAt: number;
}

export async function insertRequest(q: Queryable, row: RequestRow): Promise<void> {
  await q.run('INSERT INTO sso_requests (key, value, created_at, expires_at) VALUES (?, ?, ?, ?)', [row.key, row.value, row.createdAt, row.expiresAt]);
}

/** Inserts unless the key is there already (node-saml saves an ID once). */
export async function insertRequestOnce(q: Queryable, row: RequestRow): Promise<void> {
  await q.run('INSERT INTO sso_requests (key, value, created_at, expires_at) VALUES (?, ?, ?, ?) ON CONFLICT (key) DO NOTHING', [
    row.key,
    row.value,
    row.createdAt,
    row.expiresAt,
  ]);
}

/** Deletes the row and returns what it held, in one statement: of two takers racing, one gets it. */
export async function takeRequestRow(q: Queryable, key: string): Promise<{ value: string; expires_at: number } | undefined> {
  return q.get<{ value: string; expires_at: number }>('DELETE FROM sso_requests WHERE key = ? RETURNING value, expires_at', [key]);
}

/** The value of a row that has not expired. */
export async function liveRequestValue(q: Queryable, key: string, now: number): Promise<string | undefined> {
  return (await q.get<{ value: string }>('SELECT value FROM sso_requests WHERE key = ? AND expires_at > ?', [key, now]))?.value;
}

export async function purgeRequests(q: Queryable, now: number): Promise<number> {
  return (await q.run('DELETE FROM sso_requests WHERE expires_at < ?', [now])).changes;
}
