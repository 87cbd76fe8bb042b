/**
 * Login tokens (the loginToken of MFA_REQUIRED) on the async data layer, with the rules of
 * services/mfa.ts: known, unexpired, unused, under its 5 tries, presented by the browser it was given
 * to, of an active account; every try reserved before a code is compared, against the token's own 5
 * and the account's hourly budget of wrong codes (LIMITS.codeFailuresPerAccountPerHour, the same
 * `code` counter the other MFA codes use); spent once by a conditional update.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { lockKey, type Queryable } from '../db/data.js';
import { sameBrowser } from './browserBinding.js';
import { hitCounter, peekCounter, undoCounter } from './counters.js';
import { sha256 } from '../crypto/primitives.js';
import { LIMITS } from './limits.js';
import type { LoginTokenRow } from './mfa.js';
import type { UserRow } from './users.js';

export type TokenRow = LoginTokenRow & { trust_device: number };

export interface OpenLoginToken {
  row: TokenRow;
  user: UserRow;
}

export const findUser = (q: Queryable, id: number): Promise<UserRow | undefined> => q.get<UserRow>('SELECT * FROM users WHERE id = ?', [id]);

/** The open token of this purpose presented by the browser it was given to, with its active user. */
export async function openLoginToken(
  ctx: AppContext,
  req: FastifyRequest,
  token: string,
  purpose: LoginTokenRow['purpose'],
): Promise<OpenLoginToken | undefined> {
  const row = await ctx.data.get<TokenRow>('SELECT * FROM login_tokens WHERE token_hash = ?', [sha256(token)]);
  if (!row || row.purpose !== purpose || row.used_at !== null || row.expires_at <= ctx.now() || row.attempts >= LIMITS.triesPerCode) return undefined;
  if (!sameBrowser(ctx, req, row.browser_hash)) return undefined;
  const user = await findUser(ctx.data, row.user_id);
  return user && user.state === 'active' ? { row, user } : undefined;
}

/**
 * Reserves one try on the token and on its account's code budget, in one transaction under the
 * account's lock (concurrent guesses queue, and cannot overrun either). False: the token's tries or the account's budget are spent.
 */
export function reserveLoginTokenTry(ctx: AppContext, row: TokenRow): Promise<boolean> {
  const now = ctx.now();
  return ctx.data.tx(
    async (t) => {
      if ((await peekCounter(t, 'code', String(row.user_id), LIMITS.window.codes, now)).count >= LIMITS.codeFailuresPerAccountPerHour) return false;
      const own = await t.run('UPDATE login_tokens SET attempts = attempts + 1 WHERE token_hash = ? AND attempts < ? AND used_at IS NULL', [
        row.token_hash,
        LIMITS.triesPerCode,
      ]);
      if (own.changes !== 1) return false;
      await hitCounter(t, 'code', String(row.user_id), LIMITS.window.codes, now);
      return true;
    },
    { lock: lockKey('account', row.user_id) },
  );
}

/** The reserved try was a right code: it does not count against the account. */
export const loginTokenCodeAccepted = (q: Queryable, userId: number): Promise<void> => undoCounter(q, 'code', String(userId));

/** Spends the token: true for exactly one of any number of concurrent requests. */
export async function spendLoginToken(q: Queryable, tokenHash: string, now: number): Promise<boolean> {
  return (await q.run('UPDATE login_tokens SET used_at = ? WHERE token_hash = ? AND used_at IS NULL', [now, tokenHash])).changes === 1;
}
