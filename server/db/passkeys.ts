/**
 * The account's WebAuthn credentials as data: its passkeys (table passkeys, migrations 040 and 043)
 * and the security keys of MFA (mfa_enrolments U2F_TOKEN), which sign in as passkeys too. Typed
 * statements for services/passkeys.ts (sign-in, adding one), services/passkeyReview.ts (the list after
 * a password reset), services/passkeyNotMe.ts ("This wasn't me"), "sign out everywhere" and the
 * admin's `passkeys` and `reset-mfa`. Every read goes to the database: a removed passkey is refused
 * at once by every instance.
 */
import type { Queryable } from './data.js';

/** A credential that can sign in alone, found by its id. */
export interface StoredCredential {
  source: 'passkeys' | 'mfa_enrolments';
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
  clone_suspected_at: number | null;
}

type CredentialRow = Omit<StoredCredential, 'source'>;

const COLUMNS = 'id, user_id, credential_id, public_key, sign_count, clone_suspected_at';

/**
 * The one credential with this id, or undefined. An id held by two rows (written before migration 043
 * made ids unique) is ambiguous and answers undefined: it signs in nobody rather than the first row's account.
 */
export async function findCredential(q: Queryable, credentialId: string): Promise<StoredCredential | undefined> {
  const passkeys = await q.all<CredentialRow>(`SELECT ${COLUMNS} FROM passkeys WHERE credential_id = ? LIMIT 2`, [credentialId]);
  const keys = await q.all<CredentialRow>(
    `SELECT ${COLUMNS} FROM mfa_enrolments WHERE type = 'U2F_TOKEN' AND credential_id = ? AND public_key IS NOT NULL LIMIT 2`,
    [credentialId],
  );
  const found = [...passkeys.map((row) => ({ source: 'passkeys' as const, ...row })), ...keys.map((row) => ({ source: 'mfa_enrolments' as const, ...row }))];
  return found.length === 1 ? found[0] : undefined;
}

/** Whether any account holds this credential id already, as a passkey or as a security key (a new registration of it is refused). */
export async function credentialIdInUse(q: Queryable, credentialId: string): Promise<boolean> {
  const row = await q.get<{ n: number }>(
    'SELECT (SELECT count(*) FROM passkeys WHERE credential_id = ?) + (SELECT count(*) FROM mfa_enrolments WHERE credential_id = ?) AS n',
    [credentialId, credentialId],
  );
  return Number(row?.n ?? 0) > 0;
}

/** The account's credentials, passkeys and security keys (a new passkey's exclude list). */
export async function accountCredentialIds(q: Queryable, userId: number): Promise<{ id: string; transports?: string[] }[]> {
  const passkeys = await q.all<{ credential_id: string; transports: string | null }>('SELECT credential_id, transports FROM passkeys WHERE user_id = ?', [
    userId,
  ]);
  const keys = await q.all<{ credential_id: string }>(
    "SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL",
    [userId],
  );
  return [...passkeys.map((p) => ({ id: p.credential_id, ...transportsOf(p.transports) })), ...keys.map((k) => ({ id: k.credential_id }))];
}

function transportsOf(stored: string | null): { transports?: string[] } {
  try {
    const list: unknown = stored ? JSON.parse(stored) : undefined;
    return Array.isArray(list) && list.every((t) => typeof t === 'string') ? { transports: list } : {};
  } catch {
    return {};
  }
}

/** A credential's stored counter, or undefined when it was removed meanwhile. */
export async function credentialSignCount(q: Queryable, credential: Pick<StoredCredential, 'source' | 'id'>): Promise<number | undefined> {
  const table = credential.source;
  return (await q.get<{ sign_count: number }>(`SELECT sign_count FROM ${table} WHERE id = ?`, [credential.id]))?.sign_count;
}

/** Marks a credential whose counter did not move forward (a clone of its authenticator is suspected): it signs in no more. */
export async function markCloneSuspected(q: Queryable, credential: Pick<StoredCredential, 'source' | 'id'>, now: number): Promise<void> {
  const table = credential.source;
  await q.run(`UPDATE ${table} SET clone_suspected_at = ? WHERE id = ? AND clone_suspected_at IS NULL`, [now, credential.id]);
}

/** A passkey's verified sign-in: its counter and backup state as the authenticator reported them, and when. */
export async function recordPasskeyUse(q: Queryable, passkeyId: number, signCount: number, backedUp: boolean, now: number): Promise<void> {
  await q.run('UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE id = ?', [signCount, backedUp ? 1 : 0, now, passkeyId]);
}

/** Whether the account has a passkey that signs in (one suspected as a clone does not). */
export async function hasPasskey(q: Queryable, userId: number): Promise<boolean> {
  return (await q.get('SELECT id FROM passkeys WHERE user_id = ? AND clone_suspected_at IS NULL LIMIT 1', [userId])) !== undefined;
}

/** A new passkey, as verified by services/passkeys.ts addPasskey; its row id. */
export interface NewPasskey {
  userId: number;
  credentialId: string;
  publicKey: string;
  signCount: number;
  aaguid: string;
  deviceType: string;
  backedUp: boolean;
  transports: string[] | undefined;
  discoverable: boolean | undefined;
  userAgent: string;
  createdAt: number;
}

export async function insertPasskey(q: Queryable, p: NewPasskey): Promise<number> {
  const row = await q.get<{ id: number }>(
    `INSERT INTO passkeys (user_id, credential_id, public_key, sign_count, aaguid, device_type, backed_up, transports, discoverable, user_agent, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
    [
      p.userId,
      p.credentialId,
      p.publicKey,
      p.signCount,
      p.aaguid,
      p.deviceType,
      p.backedUp ? 1 : 0,
      p.transports ? JSON.stringify(p.transports) : null,
      p.discoverable === undefined ? null : p.discoverable ? 1 : 0,
      p.userAgent.slice(0, 300),
      p.createdAt,
    ],
  );
  if (!row) throw new Error('INSERT … RETURNING gave no row');
  return Number(row.id);
}

/** One passkey as its owner and the operator see it. */
export interface PasskeySummary {
  id: number;
  credentialId: string;
  createdAt: number;
  lastUsedAt: number | null;
  /** The User-Agent of the browser that added it (NULL: added before migration 043). */
  userAgent: string | null;
  /** 'multiDevice': synced by its provider; 'singleDevice': bound to one authenticator. */
  deviceType: string;
  cloneSuspected: boolean;
}

interface SummaryRow {
  id: number;
  credential_id: string;
  created_at: number;
  last_used_at: number | null;
  user_agent: string | null;
  device_type: string;
  clone_suspected_at: number | null;
}

const summary = (r: SummaryRow): PasskeySummary => ({
  id: Number(r.id),
  credentialId: r.credential_id,
  createdAt: Number(r.created_at),
  lastUsedAt: r.last_used_at === null ? null : Number(r.last_used_at),
  userAgent: r.user_agent,
  deviceType: r.device_type,
  cloneSuspected: r.clone_suspected_at !== null,
});

/** The account's passkeys, newest first. */
export async function listPasskeys(q: Queryable, userId: number): Promise<PasskeySummary[]> {
  const rows = await q.all<SummaryRow>(
    `SELECT id, credential_id, created_at, last_used_at, user_agent, device_type, clone_suspected_at FROM passkeys
     WHERE user_id = ? ORDER BY created_at DESC, id DESC`,
    [userId],
  );
  return rows.map(summary);
}

/** Which of an account's passkeys to remove: some by row id, or all (but `keep`, the passkey of the session that asks). */
export type PasskeyRemoval = { ids: readonly number[] } | { all: true; keep?: number | null };

/**
 * Removes passkeys of one account, and ends the sessions they signed in, on q (the caller's
 * transaction). Ids of other accounts are ignored. Returns the removed passkeys (for the admin's
 * report, and for issue 37's signals: the credential ids the browser may be told to forget).
 */
export async function removePasskeys(q: Queryable, userId: number, which: PasskeyRemoval): Promise<PasskeySummary[]> {
  const chosen = (await listPasskeys(q, userId)).filter((p) => ('ids' in which ? which.ids.includes(p.id) : p.id !== which.keep));
  if (chosen.length === 0) return [];
  const ids = chosen.map((p) => p.id);
  const list = ids.map(() => '?').join(', ');
  await q.run(`DELETE FROM sessions WHERE user_id = ? AND passkey_id IN (${list})`, [userId, ...ids]);
  await q.run(`DELETE FROM passkeys WHERE user_id = ? AND id IN (${list})`, [userId, ...ids]);
  return chosen;
}

// ---- the offer to add one (table passkey_offers) ----------------------------------------------------

/** The account's answer to the offer: undefined when it never declined; askAgainAt null: "Don't ask again". */
export async function declinedOffer(q: Queryable, userId: number): Promise<{ askAgainAt: number | null } | undefined> {
  const row = await q.get<{ ask_again_at: number | null }>('SELECT ask_again_at FROM passkey_offers WHERE user_id = ?', [userId]);
  return row && { askAgainAt: row.ask_again_at };
}

/** Records "Not now" (askAgainAt: when) or "Don't ask again" (null). */
export async function declineOffer(q: Queryable, userId: number, now: number, askAgainAt: number | null): Promise<void> {
  await q.run(
    `INSERT INTO passkey_offers (user_id, declined_at, ask_again_at) VALUES (?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET declined_at = excluded.declined_at, ask_again_at = excluded.ask_again_at`,
    [userId, now, askAgainAt],
  );
}

// ---- the right to list and remove them after a password reset (services/passkeyReview.ts) ----------

export async function insertReviewGrant(
  q: Queryable,
  grant: { userId: number; browserHash: string; now: number; expiresAt: number; uses: number },
): Promise<void> {
  await q.run('INSERT INTO passkey_review_grants (user_id, browser_hash, created_at, expires_at, uses_left) VALUES (?, ?, ?, ?, ?)', [
    grant.userId,
    grant.browserHash,
    grant.now,
    grant.expiresAt,
    grant.uses,
  ]);
}

interface GrantRow {
  id: number;
  user_id: number;
}

/** This browser's newest grant that is still open (not expired, uses left), without spending it. */
export async function openReviewGrant(q: Queryable, browserHash: string, now: number): Promise<{ id: number; userId: number } | undefined> {
  const row = await q.get<GrantRow>(
    'SELECT id, user_id FROM passkey_review_grants WHERE browser_hash = ? AND expires_at > ? AND uses_left > 0 ORDER BY id DESC LIMIT 1',
    [browserHash, now],
  );
  return row ? { id: Number(row.id), userId: Number(row.user_id) } : undefined;
}

/** Spends one use of a grant: true for as many concurrent requests as it has uses left. */
export async function spendReviewGrant(q: Queryable, grantId: number, now: number): Promise<boolean> {
  return (
    (await q.run('UPDATE passkey_review_grants SET uses_left = uses_left - 1 WHERE id = ? AND uses_left > 0 AND expires_at > ?', [grantId, now])).changes === 1
  );
}

// ---- what the browser is told (services/passkeySignals.ts, issue 37) ------------------------------

/**
 * The ids of every credential that signs the account in: its passkeys and its MFA security keys (they
 * share the user handle), none marked as a suspected clone. signalAllAcceptedCredentials hides every
 * other credential of this user handle in the visitor's password manager, so this list must be whole.
 */
export async function acceptedCredentialIds(q: Queryable, userId: number): Promise<string[]> {
  const passkeys = await q.all<{ credential_id: string }>('SELECT credential_id FROM passkeys WHERE user_id = ? AND clone_suspected_at IS NULL', [userId]);
  const keys = await q.all<{ credential_id: string }>(
    "SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL AND clone_suspected_at IS NULL",
    [userId],
  );
  return [...passkeys, ...keys].map((row) => row.credential_id);
}
