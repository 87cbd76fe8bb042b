/**
 * Second factor on the server: the attempt rules of every code, RFC 6238 TOTP (otplib), SMS and Duo
 * codes (single use), enrolling a method, and the WebAuthn relying party (login and set-up tokens:
 * services/loginTokens.ts). Every single use is a conditional update (changes === 1) and every
 * read-decide-write a transaction, so it holds across instances.
 */
import type { FastifyRequest } from 'fastify';
import { createGuardrails, generate, generateSecret, generateURI, verify } from 'otplib';
import type { AppContext } from '../context.js';
import { safeEqual, sha256 } from '../crypto/primitives.js';
import { setPhone, type UserRow } from '../db/accounts.js';
import { lockKey, type Database, type Queryable } from '../db/data.js';
import { pendingSecrets, setPendingPhone, setPendingSecret, type LoginTokenRow } from '../db/loginTokens.js';
import { advanceTotpStep, enrolmentSecrets, insertEnrolment, nextEnrolmentPosition, setEnrolmentSecret, totpLastStep, type EnrolmentRow } from '../db/mfa.js';
import { countWrongChallengeCode, openCodeChallenges, openSessionChallenge, spendChallenge, type ChallengeRow } from '../db/mfaChallenges.js';
import { releaseSessionCodeTry, reserveSessionCodeTry } from '../db/sessions.js';
import { isEncrypted } from '../security/secrets.js';
import { LIMITS } from './limits.js';
import { notifyMfaEnrolled, notifyPhoneChanged } from './notifications.js';
import { revokeOnMfaChange } from './revocation.js';
import type { MfaType } from './users.js';

/** Tries allowed per login or setup token, per SMS challenge and per session in the Verify MFA modal. */
export const MAX_MFA_ATTEMPTS = LIMITS.triesPerCode;
export const TOTP_PERIOD_S = 30;
export const TOTP_ISSUER = 'Frontdoor';
/** The demo secret JBSWY3DPEHPK3PXP is 80 bits (the classic authenticator-app length); new secrets get otplib's 160. */
const guardrails = createGuardrails({ MIN_SECRET_BYTES: 10 });

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

/** The reserved try was a right code: it does not count against the account (on q: the caller's transaction, or ctx.data). */
export async function codeAccepted(ctx: AppContext, userId: number, budget: CodeBudget = 'code', q: Queryable = ctx.data): Promise<void> {
  await ctx.limits.undo(q, budget, String(userId));
}

/** Reserves a try of the Verify MFA modal on a session (at most MAX_MFA_ATTEMPTS wrong per session). */
export function reserveSessionTry(ctx: AppContext, sessionId: number, userId: number): Promise<boolean> {
  return reserveCodeTry(ctx, userId, (t) => reserveSessionCodeTry(t, sessionId, MAX_MFA_ATTEMPTS));
}

/** A right code in the modal: the session's try is given back too. */
export async function sessionCodeAccepted(ctx: AppContext, sessionId: number, userId: number): Promise<void> {
  await releaseSessionCodeTry(ctx.data, sessionId);
  await codeAccepted(ctx, userId);
}

export const isSixDigits = (code: string): boolean => /^[0-9]{6}$/.test(code);

/**
 * TOTP secrets are stored encrypted (AES-256-GCM, AppContext.seal). Rows of an older database that still
 * hold clear secrets are encrypted at start-up (sealing is synchronous: it may run inside the transaction).
 */
export function encryptLegacySecrets(data: Database, seal: (plain: string) => string): Promise<number> {
  return data.tx(async (t) => {
    let n = 0;
    for (const row of await enrolmentSecrets(t)) {
      if (!isEncrypted(row.secret)) n += await setEnrolmentSecret(t, row.id, seal(row.secret));
    }
    for (const row of await pendingSecrets(t)) {
      if (!isEncrypted(row.pending_secret)) n += await setPendingSecret(t, row.token_hash, seal(row.pending_secret));
    }
    return n;
  });
}

/** TOTP with ±1 time step; a step already accepted for this enrolment is refused (codes are single use). */
export async function verifyTotp(ctx: AppContext, enrolment: EnrolmentRow, code: string): Promise<boolean> {
  if (!isSixDigits(code) || !enrolment.secret) return false;
  const enrolmentId = enrolment.id;
  const secret = ctx.unseal(enrolment.secret);
  const last = await totpLastStep(ctx.data, enrolmentId);
  const result = await verify({
    secret,
    guardrails,
    token: code,
    period: TOTP_PERIOD_S,
    epoch: Math.floor(ctx.now() / 1000),
    epochTolerance: TOTP_PERIOD_S,
    ...(last !== null ? { afterTimeStep: last } : {}),
  });
  if (!result.valid) return false;
  const step = Math.floor(ctx.now() / 1000 / TOTP_PERIOD_S) + result.delta;
  // Conditional: of two requests with the same code at once, only one wins the step.
  return advanceTotpStep(ctx.data, enrolmentId, step);
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

/** config-totp: a new secret for the set-up, kept (sealed) on its token until two of its codes come back (login/totp). */
export async function startTotpSetup(ctx: AppContext, token: Pick<LoginTokenRow, 'token_hash'>, email: string): Promise<{ key: string; qrUrl: string }> {
  const secret = newTotpSecret(email);
  await setPendingSecret(ctx.data, token.token_hash, ctx.seal(secret.key));
  return secret;
}

/**
 * change-phone: a number typed during SMS set-up, held on its token, not stored yet: it is stored once a
 * code sent to it comes back (login/smsotp); texts for a password reset keep going to the number on file.
 */
export async function holdSetupPhone(ctx: AppContext, token: Pick<LoginTokenRow, 'token_hash'>, phone: string): Promise<void> {
  await setPendingPhone(ctx.data, token.token_hash, phone);
}

/**
 * An SMS or Duo code under a token: the right code of an open challenge, which is then spent (once,
 * under concurrency). Returns the challenge (with the phone an SMS code was sent to), or undefined.
 */
export async function consumeChallengeCode(ctx: AppContext, tokenHash: string, type: 'SMSOTP' | 'DUO', code: string): Promise<ChallengeRow | undefined> {
  if (!isSixDigits(code)) return undefined;
  const rows = await openCodeChallenges(ctx.data, tokenHash, type, ctx.now());
  const hit = rows.find((r) => safeEqual(r.code_hash ?? '', sha256(code)));
  return hit && (await spendChallenge(ctx.data, hit.id, ctx.now())) ? hit : undefined;
}

/**
 * An SMS or Duo code of the Verify MFA modal: the session-side challenge (no login token, owned by the
 * user), the newest open one of its type, is spent by the right code; MAX_MFA_ATTEMPTS wrong codes spend it too.
 */
export async function consumeSessionCode(ctx: AppContext, userId: number, type: 'SMSOTP' | 'DUO', code: string): Promise<boolean> {
  const open = await openSessionChallenge(ctx.data, userId, type, ctx.now());
  if (!open || open.code_hash === null) return false;
  if (isSixDigits(code) && safeEqual(open.code_hash, sha256(code))) return spendChallenge(ctx.data, open.id, ctx.now());
  await countWrongChallengeCode(ctx.data, open.id, MAX_MFA_ATTEMPTS, ctx.now());
  return false;
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
  const { secret, ...key } = fields;
  await insertEnrolment(t, {
    userId,
    type,
    position: await nextEnrolmentPosition(t, userId),
    sealedSecret: secret ? ctx.seal(secret) : null,
    ...key,
    createdAt: ctx.now(),
  });
  await revokeOnMfaChange(t, userId, ctx.now());
  await notifyMfaEnrolled(ctx, t, req, user, type);
}

/**
 * SMS set-up proven by a code sent to `phone`, on t: the SMS method is enrolled, and the number becomes
 * the account's (the owner is told when it changed).
 */
export async function enrolSmsPhone(ctx: AppContext, t: Queryable, req: FastifyRequest, user: UserRow, phone: string): Promise<void> {
  await enrol(ctx, t, req, user, 'SMSOTP', { phone });
  if (phone !== user.phone) {
    await setPhone(t, user.id, phone, ctx.now());
    await notifyPhoneChanged(ctx, t, req, user, phone);
  }
}
