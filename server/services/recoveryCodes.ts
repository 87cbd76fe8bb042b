/**
 * Recovery codes: the way back in for someone who lost the phone or key of their second factor.
 * A set is 10 codes of 12 characters (Crockford base32, 60 bits each, shown as XXXX-XXXX-XXXX), shown
 * once: when a first factor is set up, and again, as a new set, after signing in with one. Each is
 * stored as an HMAC-SHA256 keyed by the recovery-code key (kept sealed in the database, so a copy of
 * the database alone cannot test guesses, and a rotation of APP_SECRET keeps the codes), works once (a conditional update), and a new set voids the old one. Wrong codes count
 * like every MFA code: the login token's 5 tries and the account's budget (services/loginTokens.ts).
 *
 * Seeing a new set needs a grant: earned by setting up a first factor or by a recovery-code sign-in,
 * bound to that browser (its HttpOnly nonce cookie), valid 10 minutes, spent by the one call that
 * shows the codes.
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { lockKey, type Queryable } from '../db/data.js';
import { spendLoginToken } from '../db/loginTokens.js';
import { countUnusedRecoveryCodes, insertRecoveryGrant, replaceRecoveryCodes, spendRecoveryGrant, useRecoveryCode } from '../db/recoveryCodes.js';
import { bindBrowser } from './browserBinding.js';
import type { OpenLoginToken } from './loginTokens.js';
import { codeAccepted } from './mfa.js';
import { revokeOnMfaChange } from './revocation.js';

export const RECOVERY_CODE_COUNT = 10;
export const RECOVERY_GRANT_TTL_MS = 10 * 60 * 1000;
/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const ALPHABET = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const CODE_LENGTH = 12;

/** A new random code, grouped for reading: XXXX-XXXX-XXXX. */
export function newRecoveryCode(): string {
  const chars = Array.from({ length: CODE_LENGTH }, () => ALPHABET[crypto.randomInt(ALPHABET.length)]).join('');
  return `${chars.slice(0, 4)}-${chars.slice(4, 8)}-${chars.slice(8)}`;
}

/**
 * A typed code in its canonical form, or undefined: case, spaces and dashes do not matter, and the
 * letters people confuse with digits read as those digits (O → 0, I and L → 1), as Crockford decodes.
 */
export function normalizeRecoveryCode(typed: string): string | undefined {
  const code = typed.toUpperCase().replace(/[\s-]/g, '').replace(/O/g, '0').replace(/[IL]/g, '1');
  return code.length === CODE_LENGTH && [...code].every((c) => ALPHABET.includes(c)) ? code : undefined;
}

function codeHash(ctx: AppContext, canonical: string): string {
  return crypto.createHmac('sha256', ctx.secrets.recoveryCodeKey).update(`recovery-code\0${canonical}`).digest('hex');
}

/** Spends the code if it is one of the account's unused codes: true for exactly one of concurrent requests. */
export async function spendRecoveryCode(ctx: AppContext, q: Queryable, userId: number, typed: string): Promise<boolean> {
  const canonical = normalizeRecoveryCode(typed);
  if (!canonical) return false;
  return useRecoveryCode(q, userId, codeHash(ctx, canonical), ctx.now());
}

/** Rolls back a transaction whose code was right but whose token another request spent first. */
class TokenSpent extends Error {}

/**
 * A recovery code in place of the second factor of a login token (whose try the caller reserved): the
 * code and the token are spent together, or neither (a right code is not lost to a race), and the
 * account's try is given back. The codes left, or why not: a wrong code, or a token spent meanwhile.
 */
export async function spendRecoveryCodeForToken(
  ctx: AppContext,
  open: OpenLoginToken,
  typed: string,
): Promise<{ left: number } | { refused: 'INVALID_RECOVERY_CODE' | 'INVALID_LOGIN_TOKEN' }> {
  const userId = open.user.id;
  try {
    return await ctx.data.tx(
      async (t) => {
        if (!(await spendRecoveryCode(ctx, t, userId, typed))) return { refused: 'INVALID_RECOVERY_CODE' as const };
        if (!(await spendLoginToken(t, open.row.token_hash, ctx.now()))) throw new TokenSpent();
        await codeAccepted(ctx, userId, 'code', t);
        return { left: await countUnusedRecoveryCodes(t, userId) };
      },
      { lock: lockKey('account', userId) },
    );
  } catch (error) {
    if (error instanceof TokenSpent) return { refused: 'INVALID_LOGIN_TOKEN' };
    throw error;
  }
}

/** Lets this browser be shown a new set of codes for the account, once, within RECOVERY_GRANT_TTL_MS. */
export async function grantRecoveryCodes(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const t = ctx.now();
  await insertRecoveryGrant(ctx.data, { userId, browserHash: bindBrowser(ctx, req, reply), createdAt: t, expiresAt: t + RECOVERY_GRANT_TTL_MS });
}

/**
 * Spends this browser's open grant for the account and replaces the account's codes with a new set,
 * in one transaction; the codes in clear, or undefined without a grant. `replaced`: the account had
 * codes before (they no longer work).
 */
export async function createRecoveryCodes(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
): Promise<{ codes: string[]; replaced: boolean } | undefined> {
  const browser = bindBrowser(ctx, req, reply);
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  const hashes = codes.map((code) => codeHash(ctx, normalizeRecoveryCode(code) as string));
  const t = ctx.now();
  return ctx.data.tx(async (q) => {
    if (!(await spendRecoveryGrant(q, userId, browser, t))) return undefined;
    const replaced = await replaceRecoveryCodes(q, userId, hashes, t);
    await revokeOnMfaChange(q, userId, t);
    return { codes, replaced };
  });
}
