/**
 * Login and set-up tokens (table login_tokens): the loginToken of MFA_REQUIRED (purpose MFA) and the
 * userToken of SETUP_MFA, stored as sha256 with the browser they were given to, their tries, what the
 * sign-in goes on with (stay signed in, return_to) and what a set-up keeps until it ends (a TOTP secret,
 * a typed phone). The rules are services/loginTokens.ts's.
 */
import type { MfaType } from '../../src/generated/api-types.js';
import type { Queryable } from './data.js';

export type LoginTokenPurpose = 'MFA' | 'SETUP_MFA';

export interface LoginTokenRow {
  token_hash: string;
  user_id: number;
  purpose: LoginTokenPurpose;
  mfa_type: MfaType | null;
  stay_signed_in: number;
  return_to: string | null;
  expires_at: number;
  used_at: number | null;
  attempts: number;
  /** The TOTP secret of a set-up, sealed, until its codes come back. */
  pending_secret: string | null;
  /** sha256 of the nonce cookie of the browser the token was given to (services/browserBinding.ts). */
  browser_hash: string | null;
  /** A phone typed during SMS setup, stored on the account only once a code sent to it came back. */
  pending_phone: string | null;
  /** 1: the visitor asked to trust this browser once the second factor succeeds (services/trustedDevices.ts). */
  trust_device: number;
}

export function findLoginToken(q: Queryable, tokenHash: string): Promise<LoginTokenRow | undefined> {
  return q.get<LoginTokenRow>('SELECT * FROM login_tokens WHERE token_hash = ?', [tokenHash]);
}

export interface NewLoginToken {
  tokenHash: string;
  userId: number;
  purpose: LoginTokenPurpose;
  mfaType: MfaType | null;
  staySignedIn: boolean;
  returnTo: string | null;
  createdAt: number;
  expiresAt: number;
  browserHash: string;
}

export async function insertLoginToken(q: Queryable, t: NewLoginToken): Promise<void> {
  await q.run(
    `INSERT INTO login_tokens (token_hash, user_id, purpose, mfa_type, stay_signed_in, return_to, created_at, expires_at, browser_hash)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [t.tokenHash, t.userId, t.purpose, t.mfaType, t.staySignedIn ? 1 : 0, t.returnTo, t.createdAt, t.expiresAt, t.browserHash],
  );
}

/** Ends the account's open tokens of one purpose (a new sign-in's token replaces them). */
export async function voidOpenLoginTokens(q: Queryable, userId: number, purpose: LoginTokenPurpose, now: number): Promise<void> {
  await q.run('UPDATE login_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL', [now, userId, purpose]);
}

/** Ends every open token of the account (a password change, "sign out everywhere"). */
export async function voidUserLoginTokens(q: Queryable, userId: number, now: number): Promise<void> {
  await q.run('UPDATE login_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL', [now, userId]);
}

/** Counts a try on an open token: false when it has had `max` already or is spent (a conditional update). */
export async function countLoginTokenTry(q: Queryable, tokenHash: string, max: number): Promise<boolean> {
  return (
    (await q.run('UPDATE login_tokens SET attempts = attempts + 1 WHERE token_hash = ? AND attempts < ? AND used_at IS NULL', [tokenHash, max])).changes === 1
  );
}

/** Spends the token: true for exactly one of any number of concurrent requests. */
export async function spendLoginToken(q: Queryable, tokenHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE login_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [now, tokenHash])).changes === 1;
}

/** The method the sign-in asks for now (switch-mfa). */
export async function setLoginTokenMfaType(q: Queryable, tokenHash: string, type: MfaType): Promise<void> {
  await q.run('UPDATE login_tokens SET mfa_type = ? WHERE token_hash = ?', [type, tokenHash]);
}

export async function setPendingSecret(q: Queryable, tokenHash: string, sealedSecret: string): Promise<number> {
  return (await q.run('UPDATE login_tokens SET pending_secret = ? WHERE token_hash = ?', [sealedSecret, tokenHash])).changes;
}

export async function setPendingPhone(q: Queryable, tokenHash: string, phone: string): Promise<void> {
  await q.run('UPDATE login_tokens SET pending_phone = ? WHERE token_hash = ?', [phone, tokenHash]);
}

/** Every pending TOTP secret (start-up seals those an older release kept in clear). */
export function pendingSecrets(q: Queryable): Promise<{ token_hash: string; pending_secret: string }[]> {
  return q.all<{ token_hash: string; pending_secret: string }>('SELECT token_hash, pending_secret FROM login_tokens WHERE pending_secret IS NOT NULL');
}

/** Records the visitor's choice to trust this browser on the open token (the second factor is still to come). */
export async function setTrustRequest(q: Queryable, tokenHash: string, trust: boolean): Promise<void> {
  await q.run('UPDATE login_tokens SET trust_device = ? WHERE token_hash = ? AND used_at IS NULL', [trust ? 1 : 0, tokenHash]);
}

/** Whether the visitor asked to trust the browser (the token may be spent by now). */
export async function trustRequested(q: Queryable, tokenHash: string): Promise<boolean> {
  return (await q.get<{ trust_device: number }>('SELECT trust_device FROM login_tokens WHERE token_hash = ?', [tokenHash]))?.trust_device === 1;
}
