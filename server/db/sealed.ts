/**
 * Where the database keeps sealed values (AES-GCM under the data key of APP_SECRET, "enc1:…",
 * security/secrets.ts): the columns `npm run admin -- rotate-secret` re-seals. A test seals through
 * every path the server has and then finds no "enc1:" value outside these columns
 * (tests/server/rotate-secret.test.ts), so a new sealed column cannot be forgotten here.
 */
import type { Queryable, SqlValue } from './data.js';

export interface SealedColumn {
  table: string;
  /** The primary key: rows are visited in its order, so a rotation that stopped resumes where it was. */
  key: string;
  column: string;
}

export const SEALED_COLUMNS: readonly SealedColumn[] = [
  { table: 'mfa_enrolments', key: 'id', column: 'secret' },
  { table: 'login_tokens', key: 'token_hash', column: 'pending_secret' },
  { table: 'verification_codes', key: 'code_hash', column: 'sealed_code' },
  { table: 'division_activations', key: 'activation_key', column: 'sealed_key' },
  { table: 'sso_connections', key: 'id', column: 'secrets' },
  { table: 'tenant_settings', key: 'organization_id', column: 'twilio' },
  { table: 'tenant_settings', key: 'organization_id', column: 'duo' },
  { table: 'server_secrets', key: 'name', column: 'value' },
];

export interface SealedRow {
  key: SqlValue;
  value: string;
}

/** The next rows of a column holding a sealed value, after `after` in key order (null: from the start). */
export function sealedRows(q: Queryable, c: SealedColumn, after: SqlValue, limit: number): Promise<SealedRow[]> {
  return q.all<SealedRow>(
    `SELECT ${c.key} AS key, ${c.column} AS value FROM ${c.table}
     WHERE ${c.column} LIKE 'enc1:%' ${after === null ? '' : `AND ${c.key} > ?`} ORDER BY ${c.key} LIMIT ${Number(limit)}`,
    after === null ? [] : [after],
  );
}

/** Replaces one sealed value, only if it is still the one read (a server writing meanwhile wins); true when replaced. */
export async function replaceSealed(q: Queryable, c: SealedColumn, key: SqlValue, from: string, to: string): Promise<boolean> {
  const { changes } = await q.run(`UPDATE ${c.table} SET ${c.column} = ? WHERE ${c.key} = ? AND ${c.column} = ?`, [to, key, from]);
  return changes === 1;
}
