/**
 * Login and set-up tokens (the loginToken of MFA_REQUIRED, the userToken of SETUP_MFA; rows:
 * db/loginTokens.ts). A token is open when it is known, unexpired, unused, under its LIMITS.triesPerCode
 * tries, presented by the browser it was given to (services/browserBinding.ts), and of an active
 * account. Every try is reserved before a code is compared, against the token's own tries and the
 * account's hourly budget of wrong codes (services/mfa.ts reserveCodeTry); a token is spent once, by a
 * conditional update (db/loginTokens.ts spendLoginToken), in the transaction that finishes its step.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sha256 } from '../crypto/primitives.js';
import { findUserById, type UserRow } from '../db/accounts.js';
import { countLoginTokenTry, findLoginToken, setLoginTokenMfaType, type LoginTokenPurpose, type LoginTokenRow } from '../db/loginTokens.js';
import { sameBrowser } from './browserBinding.js';
import { LIMITS } from './limits.js';
import { reserveCodeTry } from './mfa.js';
import type { MfaType } from './users.js';

export interface OpenLoginToken {
  row: LoginTokenRow;
  user: UserRow;
}

/** The open token of this purpose presented by the browser it was given to, with its active user. */
export function openLoginToken(ctx: AppContext, req: FastifyRequest, token: string, purpose: LoginTokenPurpose): Promise<OpenLoginToken | undefined> {
  return openLoginTokenByHash(ctx, req, sha256(token), purpose);
}

/** openLoginToken for a token known by its hash (the state of a Duo round trip carries the hash). */
export async function openLoginTokenByHash(
  ctx: AppContext,
  req: FastifyRequest,
  tokenHash: string,
  purpose: LoginTokenPurpose,
): Promise<OpenLoginToken | undefined> {
  const row = await findLoginToken(ctx.data, tokenHash);
  if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= ctx.now() || row.attempts >= LIMITS.triesPerCode) return undefined;
  if (!sameBrowser(ctx, req, row.browser_hash)) return undefined;
  const user = await findUserById(ctx.data, row.user_id);
  return user && user.state === 'active' ? { row, user } : undefined;
}

/**
 * Reserves one try on the token and on its account's code budget, in one transaction under the
 * account's lock (concurrent guesses queue, and cannot overrun either). False: the token's tries or the account's budget are spent.
 */
export function reserveLoginTokenTry(ctx: AppContext, row: LoginTokenRow): Promise<boolean> {
  return reserveCodeTry(ctx, row.user_id, (t) => countLoginTokenTry(t, row.token_hash, LIMITS.triesPerCode));
}

/**
 * The token of a code step with a try reserved on it, counted before the code is compared; undefined
 * when the token is not open, `fits` refuses it (nothing is counted then), or its tries are spent.
 */
export async function loginTokenWithTry(
  ctx: AppContext,
  req: FastifyRequest,
  token: string,
  purpose: LoginTokenPurpose,
  fits: (open: OpenLoginToken) => boolean = () => true,
): Promise<OpenLoginToken | undefined> {
  const open = await openLoginToken(ctx, req, token, purpose);
  return open && fits(open) && (await reserveLoginTokenTry(ctx, open.row)) ? open : undefined;
}

/** switch-mfa: the sign-in asks for this method from now on (its challenge was started). */
export async function switchLoginTokenMethod(ctx: AppContext, open: OpenLoginToken, type: MfaType): Promise<void> {
  await setLoginTokenMfaType(ctx.data, open.row.token_hash, type);
}
