/**
 * Second factor on the server: login/setup tokens with attempt limits, RFC 6238 TOTP (otplib), SMS and
 * Duo codes (single use), and WebAuthn with @simplewebauthn/server. Every single use is a conditional
 * update (changes === 1) and every read-decide-write a transaction, so it holds across instances.
 */
import type { FastifyRequest } from 'fastify';
import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';
import type { AppContext } from '../context.js';
import { lockKey, type Database, type Queryable } from '../db/data.js';
import { isEncrypted } from '../security/secrets.js';
import { safeEqual, sha256 } from '../crypto/primitives.js';
import { LIMITS } from './limits.js';
import { notifyMfaEnrolled } from './notifications.js';
import { publicBase } from './publicUrl.js';
import { revokeOnMfaChange } from './revocation.js';
import { sameBrowser } from './browserBinding.js';
import { findUserById, type EnrolmentRow, type MfaType, type UserRow } from './users.js';

/** Tries allowed per login or setup token, per SMS challenge and per session in the Verify MFA modal. */
export const MAX_MFA_ATTEMPTS = LIMITS.triesPerCode;
export const TOTP_PERIOD_S = 30;
export const TOTP_ISSUER = 'Frontdoor';
/** The demo secret JBSWY3DPEHPK3PXP is 80 bits (the classic authenticator-app length); new secrets get otplib's 160. */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

export interface LoginTokenRow {
  token_hash: string;
  user_id: number;
  purpose: 'MFA' | 'SETUP_MFA';
  mfa_type: MfaType | null;
  stay_signed_in: number;
  return_to: string | null;
  expires_at: number;
  used_at: number | null;
  attempts: number;
  pending_secret: string | null;
  /** sha256 of the nonce cookie of the browser the token was given to (services/browserBinding.ts). */
  browser_hash: string | null;
  /** A phone typed during SMS setup, stored on the account only once a code sent to it came back. */
  pending_phone: string | null;
}

export interface OpenToken {
  row: LoginTokenRow;
  user: UserRow;
}

/**
 * Where a code's wrong tries are counted for its account: 'code' for the codes of sign-in (MFA at
 * sign-in and setup, the Verify MFA modal), 'reset-code' for text-reset codes. Apart, so that wrong
 * text-reset codes (an email and the phone's last four digits are enough to ask for them) never lock
 * the owner's sign-in; a reset by email clears both (revocation.ts forgiveCodeFailures).
 */
export type CodeBudget = 'code' | 'reset-code';
const BUDGET_LIMIT: Record<CodeBudget, number> = {
  code: LIMITS.codeFailuresPerAccountPerHour,
  'reset-code': LIMITS.resetCodeFailuresPerAccountPerHour,
};

/**
 * The same attempt rules for every code the server checks: a try is reserved BEFORE the code is
 * compared, in one transaction, against the code's own budget (`reserveOwn`: a token's, a session's,
 * a reset code's 5 tries, a conditional update on `t`) and the account's budget across its codes of
 * that kind (20 wrong an hour), so concurrent guesses cannot overrun either. A right code gives the
 * account's try back.
 */
export function reserveCodeTry(ctx: AppContext, userId: number, reserveOwn: (t: Queryable) => Promise<boolean>, budget: CodeBudget = 'code'): Promise<boolean> {
  // The account's tries queue on its lock (many guesses at once wait their turn instead of failing to
  // serialize); reserveOwn is a conditional update, exact at any isolation level.
  return ctx.limits.atomically(
    async (t) => {
      if ((await ctx.limits.peek(t, budget, String(userId), LIMITS.window.codes)).count >= BUDGET_LIMIT[budget]) return false;
      if (!(await reserveOwn(t))) return false;
      await ctx.limits.hit(t, budget, String(userId), LIMITS.window.codes);
      return true;
    },
    lockKey('account', userId),
  );
}

/** The reserved try was a right code: it does not count against the account. */
export async function codeAccepted(ctx: AppContext, userId: number, budget: CodeBudget = 'code'): Promise<void> {
  await ctx.limits.undo(ctx.data, budget, String(userId));
}

/** Reserves a try on a login or setup token (at most MAX_MFA_ATTEMPTS per token). */
export function reserveTokenTry(ctx: AppContext, row: LoginTokenRow): Promise<boolean> {
  return reserveCodeTry(
    ctx,
    row.user_id,
    async (t) =>
      (
        await t.run('UPDATE login_tokens SET attempts = attempts + 1 WHERE token_hash = ? AND attempts < ? AND used_at IS NULL', [
          row.token_hash,
          MAX_MFA_ATTEMPTS,
        ])
      ).changes === 1,
  );
}

/** Reserves a try of the Verify MFA modal on a session (at most MAX_MFA_ATTEMPTS wrong per session). */
export function reserveSessionTry(ctx: AppContext, sessionId: number, userId: number): Promise<boolean> {
  return reserveCodeTry(
    ctx,
    userId,
    async (t) =>
      (await t.run('UPDATE sessions SET mfa_failures = mfa_failures + 1 WHERE id = ? AND mfa_failures < ?', [sessionId, MAX_MFA_ATTEMPTS])).changes === 1,
  );
}

/** A right code in the modal: the session's try is given back too. */
export async function sessionCodeAccepted(ctx: AppContext, sessionId: number, userId: number): Promise<void> {
  await ctx.data.run('UPDATE sessions SET mfa_failures = CASE WHEN mfa_failures > 0 THEN mfa_failures - 1 ELSE 0 END WHERE id = ?', [sessionId]);
  await codeAccepted(ctx, userId);
}

/**
 * A login (MFA) or setup (SETUP_MFA) token that is known, unexpired, unused, under the attempt limit
 * and presented by the browser it was given to (a token alone, from another client, is unknown).
 */
export function openToken(ctx: AppContext, req: FastifyRequest, token: string, purpose: LoginTokenRow['purpose']): Promise<OpenToken | undefined> {
  return openTokenByHash(ctx, req, sha256(token), purpose);
}

export async function openTokenByHash(
  ctx: AppContext,
  req: FastifyRequest,
  tokenHash: string,
  purpose: LoginTokenRow['purpose'],
): Promise<OpenToken | undefined> {
  const row = await ctx.data.get<LoginTokenRow>('SELECT * FROM login_tokens WHERE token_hash = ?', [tokenHash]);
  if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= ctx.now() || row.attempts >= MAX_MFA_ATTEMPTS) return undefined;
  if (!sameBrowser(ctx, req, row.browser_hash)) return undefined;
  const user = await findUserById(ctx.data, row.user_id);
  if (!user || user.state !== 'active') return undefined;
  return { row, user };
}

/**
 * The token of a code step with a try reserved on it (the token's 5, the account's hourly budget),
 * counted before the code is compared; undefined when the token is not open, `fits` refuses it
 * (nothing is counted then), or its tries are spent.
 */
export async function tokenWithTry(
  ctx: AppContext,
  req: FastifyRequest,
  token: string,
  purpose: LoginTokenRow['purpose'],
  fits: (open: OpenToken) => boolean = () => true,
): Promise<OpenToken | undefined> {
  const open = await openToken(ctx, req, token, purpose);
  return open && fits(open) && (await reserveTokenTry(ctx, open.row)) ? open : undefined;
}

/** Spends a token on q: true for exactly one of any number of concurrent requests (a conditional update). */
export async function useToken(ctx: AppContext, q: Queryable, row: LoginTokenRow): Promise<boolean> {
  return (await q.run('UPDATE login_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [ctx.now(), row.token_hash])).changes === 1;
}

export const isSixDigits = (code: string): boolean => /^[0-9]{6}$/.test(code);

/**
 * TOTP secrets are stored encrypted (AES-256-GCM, AppContext.seal). Rows of an older database that still
 * hold clear secrets are encrypted at start-up (sealing is synchronous: it may run inside the transaction).
 */
export function encryptLegacySecrets(data: Database, seal: (plain: string) => string): Promise<number> {
  return data.tx(async (t) => {
    let n = 0;
    for (const row of await t.all<{ id: number; secret: string }>('SELECT id, secret FROM mfa_enrolments WHERE secret IS NOT NULL')) {
      if (!isEncrypted(row.secret)) n += (await t.run('UPDATE mfa_enrolments SET secret = ? WHERE id = ?', [seal(row.secret), row.id])).changes;
    }
    for (const row of await t.all<{ token_hash: string; pending_secret: string }>(
      'SELECT token_hash, pending_secret FROM login_tokens WHERE pending_secret IS NOT NULL',
    )) {
      if (!isEncrypted(row.pending_secret))
        n += (await t.run('UPDATE login_tokens SET pending_secret = ? WHERE token_hash = ?', [seal(row.pending_secret), row.token_hash])).changes;
    }
    return n;
  });
}

/** TOTP with ±1 time step; a step already accepted for this enrolment is refused (codes are single use). */
export async function verifyTotp(ctx: AppContext, enrolment: EnrolmentRow, code: string): Promise<boolean> {
  if (!isSixDigits(code) || !enrolment.secret) return false;
  const enrolmentId = enrolment.id;
  const secret = ctx.unseal(enrolment.secret);
  const last = (await ctx.data.get<{ totp_last_step: number | null }>('SELECT totp_last_step FROM mfa_enrolments WHERE id = ?', [enrolmentId]))?.totp_last_step;
  const result = await verify({
    secret,
    guardrails,
    token: code,
    period: TOTP_PERIOD_S,
    epoch: Math.floor(ctx.now() / 1000),
    epochTolerance: TOTP_PERIOD_S,
    ...(last !== null && last !== undefined ? { afterTimeStep: last } : {}),
  });
  if (!result.valid) return false;
  const step = Math.floor(ctx.now() / 1000 / TOTP_PERIOD_S) + result.delta;
  // Conditional: of two requests with the same code at once, only one wins the step.
  const won = await ctx.data.run('UPDATE mfa_enrolments SET totp_last_step = ? WHERE id = ? AND (totp_last_step IS NULL OR totp_last_step < ?)', [
    step,
    enrolmentId,
    step,
  ]);
  return won.changes === 1;
}

/** Setup: two consecutive codes of a new secret; the second one of the current step (±1). */
export async function verifyConsecutiveTotp(ctx: AppContext, secret: string, code: string, secondaryCode: string): Promise<{ ok: boolean; step?: number }> {
  if (!isSixDigits(code) || !isSixDigits(secondaryCode)) return { ok: false };
  const now = Math.floor(ctx.now() / 1000 / TOTP_PERIOD_S);
  for (const step of [now, now - 1, now + 1]) {
    const [first, second] = await Promise.all([
      generate({ secret, guardrails, period: TOTP_PERIOD_S, epoch: (step - 1) * TOTP_PERIOD_S }),
      generate({ secret, guardrails, period: TOTP_PERIOD_S, epoch: step * TOTP_PERIOD_S }),
    ]);
    if (safeEqual(first, code) && safeEqual(second, secondaryCode)) return { ok: true, step };
  }
  return { ok: false };
}

export function newTotpSecret(email: string): { key: string; qrUrl: string } {
  const key = generateSecret();
  return { key, qrUrl: generateURI({ issuer: TOTP_ISSUER, label: email, secret: key, period: TOTP_PERIOD_S }) };
}

export interface ChallengeRow {
  id: number;
  type: string;
  code_hash: string | null;
  phone: string | null;
  channel_id: string | null;
  challenge: string | null;
  attempts: number;
  expires_at: number;
  used_at: number | null;
}

/** The newest open challenge of a type under a token. */
export function openChallenge(ctx: AppContext, tokenHash: string, type: MfaType): Promise<ChallengeRow | undefined> {
  return ctx.data.get<ChallengeRow>(
    `SELECT * FROM mfa_challenges WHERE login_token_hash = ? AND type = ? AND used_at IS NULL AND expires_at > ?
    ORDER BY id DESC LIMIT 1`,
    [tokenHash, type, ctx.now()],
  );
}

/**
 * An SMS or Duo code under a token: the right code of an open challenge, which is then spent (once,
 * under concurrency). Returns the challenge (with the phone an SMS code was sent to), or undefined.
 */
export async function consumeChallengeCode(ctx: AppContext, tokenHash: string, type: 'SMSOTP' | 'DUO', code: string): Promise<ChallengeRow | undefined> {
  if (!isSixDigits(code)) return undefined;
  const rows = await ctx.data.all<ChallengeRow>(
    'SELECT * FROM mfa_challenges WHERE login_token_hash = ? AND type = ? AND used_at IS NULL AND expires_at > ? AND code_hash IS NOT NULL',
    [tokenHash, type, ctx.now()],
  );
  const hit = rows.find((r) => safeEqual(r.code_hash ?? '', sha256(code)));
  return hit && (await useChallenge(ctx, hit.id)) ? hit : undefined;
}

/**
 * Session-side challenges (Verify MFA modal): no login token (login_token_hash NULL), owned by the user.
 * The newest open one of a type, and an SMS/Duo code check that spends it; MAX_MFA_ATTEMPTS wrong codes spend it too.
 */
export function openSessionChallenge(ctx: AppContext, userId: number, type: MfaType): Promise<ChallengeRow | undefined> {
  return ctx.data.get<ChallengeRow>(
    `SELECT * FROM mfa_challenges WHERE login_token_hash IS NULL AND user_id = ? AND type = ? AND used_at IS NULL AND expires_at > ?
    ORDER BY id DESC LIMIT 1`,
    [userId, type, ctx.now()],
  );
}

export async function consumeSessionCode(ctx: AppContext, userId: number, type: 'SMSOTP' | 'DUO', code: string): Promise<boolean> {
  const open = await openSessionChallenge(ctx, userId, type);
  if (!open || open.code_hash === null) return false;
  if (isSixDigits(code) && safeEqual(open.code_hash, sha256(code))) return useChallenge(ctx, open.id);
  await ctx.data.run('UPDATE mfa_challenges SET attempts = attempts + 1, used_at = CASE WHEN attempts + 1 >= ? THEN ? ELSE used_at END WHERE id = ?', [
    MAX_MFA_ATTEMPTS,
    ctx.now(),
    open.id,
  ]);
  return false;
}

/** Spends a challenge: true for exactly one of any number of concurrent requests. */
export async function useChallenge(ctx: AppContext, id: number): Promise<boolean> {
  return (await ctx.data.run('UPDATE mfa_challenges SET used_at = ? WHERE id = ? AND used_at IS NULL', [ctx.now(), id])).changes === 1;
}

/**
 * Adds the user's PRIMARY (or next) method on t and tells the owner by email (call it inside the
 * transaction that spends the token: signIn.ts finishWithToken). Only t's statements are awaited
 * (sealing is synchronous), as a transaction demands.
 */
export async function enrol(
  ctx: AppContext,
  t: Queryable,
  req: FastifyRequest,
  user: UserRow,
  type: MfaType,
  fields: {
    secret?: string;
    phone?: string;
    totpLastStep?: number;
    /** A security key: its credential, and what its authenticator told at registration (as a passkey's, services/passkeys.ts). */
    credentialId?: string;
    publicKey?: string;
    signCount?: number;
    deviceName?: string;
    aaguid?: string;
    deviceType?: string;
    backedUp?: boolean;
  } = {},
): Promise<void> {
  const userId = user.id;
  const next = (await t.get<{ p: number }>('SELECT COALESCE(MAX(position) + 1, 0) AS p FROM mfa_enrolments WHERE user_id = ?', [userId]))?.p ?? 0;
  await t.run(
    `INSERT INTO mfa_enrolments (user_id, type, position, secret, phone, credential_id, public_key, sign_count, device_name, created_at, totp_last_step,
      aaguid, device_type, backed_up)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    [
      userId,
      type,
      next,
      fields.secret ? ctx.seal(fields.secret) : null,
      fields.phone ?? null,
      fields.credentialId ?? null,
      fields.publicKey ?? null,
      fields.signCount ?? 0,
      fields.deviceName ?? null,
      ctx.now(),
      fields.totpLastStep ?? null,
      fields.aaguid ?? null,
      fields.deviceType ?? null,
      fields.backedUp === undefined ? null : fields.backedUp ? 1 : 0,
    ],
  );
  await revokeOnMfaChange(t, userId, ctx.now());
  await notifyMfaEnrolled(ctx, t, req, user, type);
}

/**
 * WebAuthn relying party of this request: the configured public URL of the host the visitor used
 * (PUBLIC_URL, or the branding row's public_url; localhost in the demo), never the Host header itself,
 * so a forged Host cannot make the server accept an assertion made for another origin.
 */
export function relyingParty(ctx: AppContext, req: FastifyRequest): { origin: string; rpID: string } {
  const url = new URL(publicBase(ctx, req));
  return { origin: url.origin, rpID: url.hostname.replace(/^\[|\]$/g, '') };
}
