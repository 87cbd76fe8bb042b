/**
 * Shared pieces of the account flows (registration, activation, password reset): activation keys and
 * reset links (emailed, budgeted, the live one sent again rather than replaced), single-use expiring
 * verification codes, the text-reset security code with its attempt limits, and the budget of unknown
 * codes per address. Links use the configured public base URL (publicUrl.ts).
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { activateUser, setPasswordHash, type UserRow } from '../db/accounts.js';
import { insertActivationKey, liveSealedActivationKey } from '../db/accountFlows.js';
import { lockKey, type Queryable } from '../db/data.js';
import {
  countCodeTry,
  endTriedOutCode,
  findCode,
  insertCode,
  insertCodeUnlessTaken,
  latestResetTextCode,
  liveSealedResetLink,
  useCode,
  voidCodes,
  type CodePurpose,
} from '../db/verificationCodes.js';
import { sameBrowser } from './browserBinding.js';
import { randomToken, safeEqual, sha256, sixDigitCode } from '../crypto/primitives.js';
import { LIMITS, retryAfterSeconds } from './limits.js';
import { sendBudgetedMail, type MailResult } from './mail.js';
import type { OutgoingMessage } from './outbox.js';
import { codeAccepted, reserveCodeTry } from './mfa.js';
import { publicBase, requestHostname } from './publicUrl.js';
import { revokeAccountTokens } from './revocation.js';

export const ACTIVATION_KEY_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const RESET_LINK_TTL_MS = 60 * 60 * 1000;
export const RESET_SMS_TTL_MS = 10 * 60 * 1000;
/**
 * A live link is sent again while at least this much of its life is left; in its last minutes a new
 * one is made (the old one still works until it ends: a request never voids the link the owner has).
 */
export const RESEND_MIN_LEFT_MS = 20 * 60 * 1000;

/**
 * The live secret of an emailed link (found, still encrypted, by `sealedLive` among those with at least
 * RESEND_MIN_LEFT_MS left), or a new one that `store(secret, sealed)` keeps (hashed for look-up,
 * encrypted to be sent again).
 */
async function liveOrNew(
  ctx: AppContext,
  sealedLive: (leftUntil: number) => Promise<string | undefined>,
  store: (secret: string, sealed: string) => Promise<unknown>,
): Promise<string> {
  const sealed = await sealedLive(ctx.now() + RESEND_MIN_LEFT_MS);
  if (sealed) return ctx.unseal(sealed);
  const secret = randomToken(24);
  await store(secret, ctx.seal(secret));
  return secret;
}

type Mail = Omit<OutgoingMessage, 'channel'>;

/**
 * The activation email with the user's live activation key (while it has RESEND_MIN_LEFT_MS left) or a
 * new one written on t, as /activate/division/{key}. Right after sign-up (`registration`) it confirms
 * the address; asked again later (`activation`) it activates the account.
 */
export async function activationMail(
  ctx: AppContext,
  t: Queryable,
  req: FastifyRequest,
  user: { id: number; email: string; company_name: string | null; language?: string | null },
  kind: 'registration' | 'activation',
): Promise<Mail> {
  const key = await liveOrNew(
    ctx,
    (leftUntil) => liveSealedActivationKey(t, user.id, leftUntil),
    (secret, sealed) =>
      insertActivationKey(t, {
        keyHash: sha256(secret),
        divisionName: user.company_name ?? user.email,
        userId: user.id,
        expiresAt: ctx.now() + ACTIVATION_KEY_TTL_MS,
        sealedKey: sealed,
      }),
  );
  const link = `${publicBase(ctx, req)}/activate/division/${encodeURIComponent(key)}`;
  return {
    to: user.email,
    subject: 'Activate your account',
    text: `Welcome! Activate your account by opening this link within 7 days: ${link}`,
    link,
    template: { kind, link },
    language: user.language,
    hostname: requestHostname(req),
  };
}

/**
 * The user's live activation key (sent again, within the mail budget, by every request while it has
 * RESEND_MIN_LEFT_MS left) or a new one, emailed; the key and its email are written in one transaction.
 */
export function sendActivationEmail(
  ctx: AppContext,
  req: FastifyRequest,
  user: { id: number; email: string; company_name: string | null; language?: string | null },
): Promise<MailResult> {
  return sendBudgetedMail(ctx, user.id, user.email, (t) => activationMail(ctx, t, req, user, 'activation'));
}

/**
 * The account's live reset link (sent again while it has RESEND_MIN_LEFT_MS left) or a new one, by
 * email within the mail budget; the link and its email are written in one transaction. Requests never
 * void a link: an attacker asking 40 times no longer takes the owner's link away; using any link (or
 * any password change) voids them all.
 */
export function sendResetLink(ctx: AppContext, req: FastifyRequest, user: UserRow): Promise<MailResult> {
  return sendBudgetedMail(ctx, user.id, user.email, async (t) => {
    const code = await liveOrNew(
      ctx,
      (leftUntil) => liveSealedResetLink(t, user.id, leftUntil),
      (secret, sealed) =>
        insertCode(t, {
          codeHash: sha256(secret),
          userId: user.id,
          purpose: 'RESET_PASSWORD',
          createdAt: ctx.now(),
          expiresAt: ctx.now() + RESET_LINK_TTL_MS,
          sealedCode: sealed,
        }),
    );
    const link = `${publicBase(ctx, req)}/resetPassword/${encodeURIComponent(code)}`;
    return {
      to: user.email,
      subject: 'Password recovery',
      text: `To choose a new password, open this link within 1 hour: ${link}`,
      link,
      template: { kind: 'reset', link } as const,
      language: user.language,
      hostname: requestHostname(req),
    };
  });
}

export type CodeCheck =
  | { ok: true; userId: number; purpose: CodePurpose; hash: string; emailed: boolean }
  | { ok: false; resultCode: 'UNKNOWN_VERIFICATION_CODE' | 'VERIFICATION_CODE_EXPIRED' };

/**
 * Codes looked up by value alone (reset links, invitations, activation keys) are long and random, but
 * an address that keeps sending unknown ones is still stopped: LIMITS.unknownCodesPerAddressPerHour.
 * Returns the seconds to wait when the address is over its budget, else 0.
 */
export async function unknownCodesBlocked(ctx: AppContext, req: FastifyRequest): Promise<number> {
  const c = await ctx.limits.peek(ctx.data, 'unknown-code', req.ip, LIMITS.window.codes);
  return c.count >= LIMITS.unknownCodesPerAddressPerHour ? retryAfterSeconds(c.resetAt, ctx.now()) : 0;
}

export async function countUnknownCode(ctx: AppContext, req: FastifyRequest): Promise<void> {
  await ctx.limits.hit(ctx.data, 'unknown-code', req.ip, LIMITS.window.codes);
}

/**
 * Looks a verification code up (hashed) among the given purposes; used or unknown codes are unknown,
 * and so is a code bound to another browser (services/browserBinding.ts). `emailed`: the code came by
 * email (a reset link), which proves the mailbox.
 */
export async function checkCode(ctx: AppContext, req: FastifyRequest, code: string, purposes: CodePurpose[]): Promise<CodeCheck> {
  const hash = sha256(code);
  const row = await findCode(ctx.data, hash);
  if (!row || row.used_at !== null || !purposes.includes(row.purpose) || !sameBrowser(ctx, req, row.browser_hash))
    return { ok: false, resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  if (row.expires_at <= ctx.now()) return { ok: false, resultCode: 'VERIFICATION_CODE_EXPIRED' };
  return { ok: true, userId: row.user_id, purpose: row.purpose, hash, emailed: row.purpose === 'RESET_PASSWORD' && row.browser_hash === null };
}

/**
 * Text reset: the account's one live 6-digit security code, bound to the browser that asked for it
 * (browserHash), written on t (the transaction that queues its text). A new one voids the old; it is
 * stored hashed with the user's id (6-digit codes of different accounts never share a row), and it
 * dies after LIMITS.triesPerCode wrong tries.
 */
export async function issueResetTextCode(ctx: AppContext, t: Queryable, userId: number, browserHash: string): Promise<string> {
  await voidCodes(t, userId, ['RESET_SMS'], ctx.now());
  return storeCode(ctx, t, userId, 'RESET_SMS', RESET_SMS_TTL_MS, sixDigitCode, (c) => `${userId}:${c}`, browserHash);
}

export type ResetTextCheck = { ok: true; userId: number } | { ok: false; resultCode: 'UNKNOWN_VERIFICATION_CODE' | 'VERIFICATION_CODE_EXPIRED' };

/**
 * Checks a texted security code against the account's live one, from the browser that asked for it
 * (another browser's guesses reach no code): a try is reserved first (the code's 5 and the account's
 * hourly budget of text-reset codes, apart from the sign-in codes), the comparison is constant-time,
 * and the fifth wrong try kills the code. Unknown accounts answer like a wrong code.
 */
export async function checkResetTextCode(ctx: AppContext, req: FastifyRequest, user: UserRow | undefined, code: string): Promise<ResetTextCheck> {
  const unknown = { ok: false, resultCode: 'UNKNOWN_VERIFICATION_CODE' } as const;
  if (!user) return unknown;
  const row = await latestResetTextCode(ctx.data, user.id);
  if (!row || !sameBrowser(ctx, req, row.browser_hash)) return unknown;
  if (row.expires_at <= ctx.now()) return { ok: false, resultCode: 'VERIFICATION_CODE_EXPIRED' };
  const reserved = await reserveCodeTry(ctx, user.id, (t) => countCodeTry(t, row.code_hash, LIMITS.triesPerCode), 'reset-code');
  if (!reserved) return unknown;
  if (/^[0-9]{6}$/.test(code) && safeEqual(row.code_hash, sha256(`${user.id}:${code}`)) && (await useCode(ctx.data, row.code_hash, ctx.now()))) {
    await codeAccepted(ctx, user.id, 'reset-code');
    return { ok: true, userId: user.id };
  }
  await endTriedOutCode(ctx.data, row.code_hash, LIMITS.triesPerCode, ctx.now());
  return unknown;
}

/**
 * A new password (its hash) with a checked set-password code, in one transaction under the account's
 * lock: the code is used (once, under concurrency), the password set, an invitation's account
 * activated, and whatever could act for the account with the old password ends: sessions, login and
 * set-up tokens, every other code (older invitation codes included), pending invitations
 * (revocation.ts). False when another request used the code first.
 */
export function setPasswordWithCode(ctx: AppContext, code: { userId: number; purpose: CodePurpose; hash: string }, passwordHash: string): Promise<boolean> {
  const t = ctx.now();
  return ctx.data.tx(
    async (q) => {
      if (!(await useCode(q, code.hash, t))) return false;
      await setPasswordHash(q, code.userId, passwordHash, t);
      if (code.purpose === 'INVITATION') await activateUser(q, code.userId, t);
      await revokeAccountTokens(ctx, code.userId, q);
      return true;
    },
    { lock: lockKey('account', code.userId) },
  );
}

/**
 * Stores a code generated by `make` (hashed) on q, retrying on the rare collision with an existing row
 * (short SMS codes share the table's primary key space).
 */
export async function storeCode(
  ctx: AppContext,
  q: Queryable,
  userId: number,
  purpose: CodePurpose,
  ttlMs: number,
  make: () => string,
  hashed: (code: string) => string = (code) => code,
  browserHash: string | null = null,
): Promise<string> {
  const t = ctx.now();
  for (let i = 0; i < 20; i += 1) {
    const code = make();
    if (await insertCodeUnlessTaken(q, { codeHash: sha256(hashed(code)), userId, purpose, createdAt: t, expiresAt: t + ttlMs, browserHash })) return code;
  }
  throw new Error('could not store a unique verification code');
}
