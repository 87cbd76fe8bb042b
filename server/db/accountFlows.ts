/**
 * The codes of the account flows, each stored as sha256 and used once (a conditional update):
 * activation keys (table division_activations: a division's, or a self-registered account's, kept
 * sealed too to be sent again while it lives), user invitations (invitations), trial links
 * (trial_links: registration with an invite), and expired-trial session keys (expired_trial_sessions:
 * issued by a sign-in that answers TRIAL_EXPIRED, each makes one request).
 */
import type { Queryable } from './data.js';

// ---- activation keys ---------------------------------------------------------------------------

export interface ActivationKeyRow {
  activation_key: string;
  activated_at: number | null;
  /** The self-registered account it activates; null: a division's key. */
  user_id: number | null;
  expires_at: number | null;
}

export function findActivationKey(q: Queryable, keyHash: string): Promise<ActivationKeyRow | undefined> {
  return q.get<ActivationKeyRow>('SELECT * FROM division_activations WHERE activation_key = ?', [keyHash]);
}

export interface NewActivationKey {
  keyHash: string;
  divisionName: string;
  activatedAt?: number | null;
  userId?: number | null;
  expiresAt?: number | null;
  sealedKey?: string | null;
}

export async function insertActivationKey(q: Queryable, k: NewActivationKey): Promise<void> {
  await q.run('INSERT INTO division_activations (activation_key, division_name, activated_at, user_id, expires_at, sealed_key) VALUES (?, ?, ?, ?, ?, ?)', [
    k.keyHash,
    k.divisionName,
    k.activatedAt ?? null,
    k.userId ?? null,
    k.expiresAt ?? null,
    k.sealedKey ?? null,
  ]);
}

/** The sealed secret of the account's live activation key that lives past `leftUntil`, the longest-lived first. */
export async function liveSealedActivationKey(q: Queryable, userId: number, leftUntil: number): Promise<string | undefined> {
  const row = await q.get<{ sealed_key: string }>(
    `SELECT sealed_key FROM division_activations WHERE user_id = ? AND activated_at IS NULL AND sealed_key IS NOT NULL AND expires_at > ?
    ORDER BY expires_at DESC LIMIT 1`,
    [userId, leftUntil],
  );
  return row?.sealed_key;
}

/** Uses the key: true for exactly one of any number of concurrent requests. */
export async function spendActivationKey(q: Queryable, keyHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE division_activations SET activated_at = ? WHERE activation_key = ? AND activated_at IS NULL', [now, keyHash])).changes === 1;
}

/** Uses every open key of the account (one of them activated it). */
export async function spendUserActivationKeys(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run('UPDATE division_activations SET activated_at = ? WHERE user_id = ? AND activated_at IS NULL', [now, userId]);
}

// ---- user invitations --------------------------------------------------------------------------

export interface InvitationRow {
  code_hash: string;
  email: string;
  user_id: number | null;
  auth_type: 'NATIVE' | 'SSO';
  expires_at: number;
  used_at: number | null;
}

export function findInvitation(q: Queryable, codeHash: string): Promise<InvitationRow | undefined> {
  return q.get<InvitationRow>('SELECT * FROM invitations WHERE code_hash = ?', [codeHash]);
}

export async function insertInvitation(q: Queryable, i: Omit<InvitationRow, 'used_at'>): Promise<void> {
  await q.run('INSERT INTO invitations (code_hash, email, user_id, auth_type, expires_at) VALUES (?, ?, ?, ?, ?)', [
    i.code_hash,
    i.email,
    i.user_id,
    i.auth_type,
    i.expires_at,
  ]);
}

/** Uses the invitation: true for exactly one of any number of concurrent requests. */
export async function useInvitation(q: Queryable, codeHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE invitations SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [now, codeHash])).changes === 1;
}

/** Ends the account's pending invitations. */
export async function voidUserInvitations(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run('UPDATE invitations SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
}

// ---- trial links -------------------------------------------------------------------------------

export interface TrialLinkRow {
  code_hash: string;
  status: 'VALID' | 'EXPIRED' | 'USED' | 'REPLACED';
  company_name: string | null;
  first_name: string | null;
  last_name: string | null;
  email: string | null;
  language: string | null;
  sales_representative: string | null;
}

export function findTrialLink(q: Queryable, codeHash: string): Promise<TrialLinkRow | undefined> {
  return q.get<TrialLinkRow>('SELECT * FROM trial_links WHERE code_hash = ?', [codeHash]);
}

export async function insertTrialLink(q: Queryable, l: TrialLinkRow): Promise<void> {
  await q.run(
    `INSERT INTO trial_links (code_hash, status, company_name, first_name, last_name, email, language, sales_representative)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    [l.code_hash, l.status, l.company_name, l.first_name, l.last_name, l.email, l.language, l.sales_representative],
  );
}

/** The link was used: it keeps no invitee data (its holder sees the representative's name only). */
export async function markTrialLinkUsed(q: Queryable, codeHash: string): Promise<void> {
  await q.run(
    "UPDATE trial_links SET status = 'USED', company_name = NULL, first_name = NULL, last_name = NULL, email = NULL, language = NULL WHERE code_hash = ?",
    [codeHash],
  );
}

// ---- expired-trial session keys ----------------------------------------------------------------

export interface NewExpiredTrialSession {
  keyHash: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
}

export async function insertExpiredTrialSession(q: Queryable, row: NewExpiredTrialSession): Promise<void> {
  await q.run('INSERT INTO expired_trial_sessions (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    row.keyHash,
    row.userId,
    row.createdAt,
    row.expiresAt,
  ]);
}

export function findExpiredTrialSession(q: Queryable, keyHash: string): Promise<{ user_id: number; expires_at: number; request: string | null } | undefined> {
  return q.get<{ user_id: number; expires_at: number; request: string | null }>(
    'SELECT user_id, expires_at, request FROM expired_trial_sessions WHERE key_hash = ?',
    [keyHash],
  );
}

/** Records the key's one request: true for exactly one of any number of concurrent requests. */
export async function claimExpiredTrialSession(q: Queryable, keyHash: string, request: string): Promise<boolean> {
  return (await q.run('UPDATE expired_trial_sessions SET request = ? WHERE key_hash = ? AND request IS NULL', [request, keyHash])).changes === 1;
}
