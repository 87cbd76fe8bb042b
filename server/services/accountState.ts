/**
 * The one account-state check of every sign-in (issue 35): password, passkey, a trusted browser, a
 * second factor or recovery code finishing a login token, single sign-on (SAML, OpenID Connect, the
 * demo IdP). Whatever proved who the visitor is, an account that is disabled, suspended, not
 * activated, outside its IP allow list, moved to another server or at the end of its trial gets the
 * same answer, in the order of DEMO-TENANT.md. `completeAuthentication` (services/signIn.ts), the
 * only place a session starts, asks it; `afterPassword` asks it first, before any code is sent.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import { findUserById, type UserRow } from '../db/accounts.js';
import { claimExpiredTrialSession, findExpiredTrialSession, insertExpiredTrialSession } from '../db/accountFlows.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import { ipAllowed } from './users.js';

export const EXPIRED_TRIAL_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** A sign-in refused by the account's state: the login result's fields (schemas/api/common/loginResult.json). */
export type AccountRefusal =
  | { resultCode: 'APP_USER_NOT_ENABLED' | 'ACCOUNT_SUSPENDED' | 'ACCOUNT_NOT_ACTIVATED' | 'IP_ADDRESS_NOT_ALLOWED' }
  | { resultCode: 'ACCOUNT_MOVED'; url: string }
  | { resultCode: 'TRIAL_EXPIRED'; expiredTrialSessionKey: string; accountManagerName?: string; accountManagerEmail?: string };

/** Why this account may not sign in now, or undefined. A TRIAL_EXPIRED answer carries a new expired-trial session key (stored on q). */
export async function accountRefusal(ctx: AppContext, req: FastifyRequest, user: UserRow, q: Queryable = ctx.data): Promise<AccountRefusal | undefined> {
  if (user.state === 'disabled') return { resultCode: 'APP_USER_NOT_ENABLED' };
  if (user.state === 'suspended') return { resultCode: 'ACCOUNT_SUSPENDED' };
  if (user.state === 'inactive') return { resultCode: 'ACCOUNT_NOT_ACTIVATED' };
  if (!ipAllowed(user.ip_allow_list, req.ip)) return { resultCode: 'IP_ADDRESS_NOT_ALLOWED' };
  if (user.moved_url) return { resultCode: 'ACCOUNT_MOVED', url: user.moved_url.replaceAll('{PORT}', String(ctx.config.publicPort)) };
  if (user.trial_expires_at !== null && user.trial_expires_at <= ctx.now()) {
    const key = randomToken(32);
    await insertExpiredTrialSession(q, { keyHash: sha256(key), userId: user.id, createdAt: ctx.now(), expiresAt: ctx.now() + EXPIRED_TRIAL_KEY_TTL_MS });
    return {
      resultCode: 'TRIAL_EXPIRED',
      expiredTrialSessionKey: key,
      ...(user.account_manager_name ? { accountManagerName: user.account_manager_name } : {}),
      ...(user.account_manager_email ? { accountManagerEmail: user.account_manager_email } : {}),
    };
  }
  return undefined;
}

export type ExpiredTrialClaim =
  { claimed: true; user: UserRow | undefined } | { claimed: false; resultCode: 'EXPIRED_SESSION_NOT_FOUND' | 'EXPIRED_SESSION_USED' };

/**
 * An expired-trial session key (the cookie of a TRIAL_EXPIRED answer) making its one request
 * (EXTENSION, PURCHASE, CALL): of concurrent requests with one key, one claims it. With the account,
 * whose manager hears of it.
 */
export async function claimExpiredTrialKey(ctx: AppContext, key: string, request: string): Promise<ExpiredTrialClaim> {
  const hash = sha256(key);
  const row = await findExpiredTrialSession(ctx.data, hash);
  if (!row || row.expires_at <= ctx.now()) return { claimed: false, resultCode: 'EXPIRED_SESSION_NOT_FOUND' };
  if (!(await claimExpiredTrialSession(ctx.data, hash, request))) return { claimed: false, resultCode: 'EXPIRED_SESSION_USED' };
  return { claimed: true, user: await findUserById(ctx.data, row.user_id) };
}
