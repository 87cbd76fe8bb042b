/**
 * An account's second factors (table mfa_enrolments): TOTP (its secret sealed, the last time step
 * accepted), SMS (a phone), Duo, and security keys (U2F_TOKEN: a WebAuthn credential, which also signs
 * in as a passkey: db/passkeys.ts). Position 0 is the PRIMARY method, the others follow in order.
 */
import type { MfaType } from '../../src/generated/api-types.js';
import type { Queryable } from './data.js';

export interface EnrolmentRow {
  id: number;
  user_id: number;
  type: MfaType;
  position: number;
  /** TOTP: the secret, sealed (AppContext.seal). */
  secret: string | null;
  phone: string | null;
}

/** The account's methods in their order (the first is the PRIMARY). */
export function enrolments(q: Queryable, userId: number): Promise<EnrolmentRow[]> {
  return q.all<EnrolmentRow>('SELECT * FROM mfa_enrolments WHERE user_id = ? ORDER BY position', [userId]);
}

/** Whether the account has any second factor. */
export async function hasEnrolment(q: Queryable, userId: number): Promise<boolean> {
  return (await q.get('SELECT id FROM mfa_enrolments WHERE user_id = ? LIMIT 1', [userId])) !== undefined;
}

/** Credential ids of the user's security keys (WebAuthn allow / exclude lists). */
export async function webAuthnCredentials(q: Queryable, userId: number): Promise<string[]> {
  const rows = await q.all<{ credential_id: string }>(
    "SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL ORDER BY position",
    [userId],
  );
  return rows.map((r) => r.credential_id);
}

/** The position a method added now takes (after the account's others; 0 for the first). */
export async function nextEnrolmentPosition(q: Queryable, userId: number): Promise<number> {
  return (await q.get<{ p: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS p FROM mfa_enrolments WHERE user_id = ?', [userId]))?.p ?? 0;
}

/** A method to add: a TOTP secret (sealed), a phone, or a security key with what its authenticator told at registration. */
export interface NewEnrolment {
  userId: number;
  type: MfaType;
  position: number;
  sealedSecret?: string | null;
  phone?: string | null;
  credentialId?: string | null;
  publicKey?: string | null;
  signCount?: number;
  deviceName?: string | null;
  totpLastStep?: number | null;
  aaguid?: string | null;
  deviceType?: string | null;
  backedUp?: boolean;
  createdAt: number;
}

export async function insertEnrolment(q: Queryable, e: NewEnrolment): Promise<void> {
  await q.run(
    `INSERT INTO mfa_enrolments (user_id, type, position, secret, phone, credential_id, public_key, sign_count, device_name, created_at, totp_last_step,
      aaguid, device_type, backed_up)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      e.userId,
      e.type,
      e.position,
      e.sealedSecret ?? null,
      e.phone ?? null,
      e.credentialId ?? null,
      e.publicKey ?? null,
      e.signCount ?? 0,
      e.deviceName ?? null,
      e.createdAt,
      e.totpLastStep ?? null,
      e.aaguid ?? null,
      e.deviceType ?? null,
      e.backedUp === undefined ? null : e.backedUp ? 1 : 0,
    ],
  );
}

/** The TOTP time step this method accepted last (a code of it or an earlier step is refused), or null. */
export async function totpLastStep(q: Queryable, enrolmentId: number): Promise<number | null> {
  return (await q.get<{ totp_last_step: number | null }>('SELECT totp_last_step FROM mfa_enrolments WHERE id = ?', [enrolmentId]))?.totp_last_step ?? null;
}

/** Moves the accepted step forward to `step`: true for one of two requests with the same code at once (a conditional update). */
export async function advanceTotpStep(q: Queryable, enrolmentId: number, step: number): Promise<boolean> {
  const won = await q.run('UPDATE mfa_enrolments SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)', [
    step,
    enrolmentId,
    step,
  ]);
  return won.changes === 1;
}

/** Every stored TOTP secret (start-up seals those an older release kept in clear). */
export function enrolmentSecrets(q: Queryable): Promise<{ id: number; secret: string }[]> {
  return q.all<{ id: number; secret: string }>('SELECT id, secret FROM mfa_enrolments WHERE secret IS NOT NULL');
}

export async function setEnrolmentSecret(q: Queryable, enrolmentId: number, sealedSecret: string): Promise<number> {
  return (await q.run('UPDATE mfa_enrolments SET secret = ? WHERE id = ?', [sealedSecret, enrolmentId])).changes;
}

/** A security key of the account that may answer a challenge (one marked as a suspected clone may not). */
export interface SecurityKeyRow {
  id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
}

export function securityKey(q: Queryable, userId: number, credentialId: string): Promise<SecurityKeyRow | undefined> {
  return q.get<SecurityKeyRow>(
    "SELECT id, credential_id, public_key, sign_count FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id = ? AND clone_suspected_at IS NULL",
    [userId, credentialId],
  );
}

/** A verified assertion of a security key: its counter and backup state as the authenticator reported them. */
export async function recordSecurityKeyUse(q: Queryable, enrolmentId: number, signCount: number, backedUp: boolean): Promise<void> {
  await q.run('UPDATE mfa_enrolments SET sign_count = ?, backed_up = ? WHERE id = ?', [signCount, backedUp ? 1 : 0, enrolmentId]);
}
