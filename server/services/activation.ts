/**
 * Activation keys (a division's, or a self-registered account's: /activate/division/{key}) and user
 * invitations, looked up by value and used once (rows: db/accountFlows.ts). Unknown ones count
 * against the address (accountFlows.ts unknownCodesBlocked); the routes are routes/activation.ts.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { sha256 } from '../crypto/primitives.js';
import { activateUser, findUserById, setPasswordHash, type UserRow } from '../db/accounts.js';
import {
  findActivationKey,
  findInvitation,
  spendActivationKey,
  spendUserActivationKeys,
  useInvitation,
  type ActivationKeyRow,
  type InvitationRow,
} from '../db/accountFlows.js';
import type { Queryable } from '../db/data.js';
import { countUnknownCode, unknownCodesBlocked } from './accountFlows.js';
import { revokeAccountTokens } from './revocation.js';

export type KeyLookup = { row: ActivationKeyRow } | { answer: { resultCode: 'UNKNOWN_VERIFICATION_CODE' | 'ALREADY_ACTIVATED' } } | { blockedFor: number };

/** An activation key by value: unknown ones count against the address; a used or expired one is answered. */
export async function lookUpActivationKey(ctx: AppContext, req: FastifyRequest, key: string): Promise<KeyLookup> {
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return { blockedFor: blocked };
  const row = await findActivationKey(ctx.data, sha256(key));
  if (!row) {
    await countUnknownCode(ctx, req);
    return { answer: { resultCode: 'UNKNOWN_VERIFICATION_CODE' } };
  }
  if (row.activated_at !== null) return { answer: { resultCode: 'ALREADY_ACTIVATED' } };
  if (row.expires_at !== null && row.expires_at <= ctx.now()) return { answer: { resultCode: 'UNKNOWN_VERIFICATION_CODE' } };
  return { row };
}

/** Spends the key on t (once, under concurrency) and activates its user; the user's other keys are spent with it. */
async function spendKey(ctx: AppContext, t: Queryable, row: ActivationKeyRow): Promise<boolean> {
  const at = ctx.now();
  const spent = await spendActivationKey(t, row.activation_key, at);
  if (spent && row.user_id !== null) {
    await activateUser(t, row.user_id, at);
    await spendUserActivationKeys(t, row.user_id, at);
  }
  return spent;
}

/** Uses the key and activates what it names; false when another request used it first. */
export function activateWithKey(ctx: AppContext, row: ActivationKeyRow): Promise<boolean> {
  return ctx.data.tx((t) => spendKey(ctx, t, row));
}

/**
 * Uses a self-registered account's key with a new password (its hash) from the mailbox the key came
 * to: the password given at registration no longer counts, nor anything issued with it. False when
 * another request used the key first.
 */
export function activateWithNewPassword(ctx: AppContext, row: ActivationKeyRow & { user_id: number }, passwordHash: string): Promise<boolean> {
  return ctx.data.tx(async (t) => {
    if (!(await spendKey(ctx, t, row))) return false;
    await setPasswordHash(t, row.user_id, passwordHash, ctx.now());
    await revokeAccountTokens(ctx, row.user_id, t);
    return true;
  });
}

/** An invitation by its code, with the account it invites; undefined when either is unknown (counted against the address). */
export async function lookUpInvitation(
  ctx: AppContext,
  req: FastifyRequest,
  code: string,
): Promise<{ invitation: InvitationRow; invitee: UserRow } | undefined> {
  // Stored as sha256, like every other code.
  const invitation = await findInvitation(ctx.data, sha256(code));
  const invitee = invitation?.user_id != null ? await findUserById(ctx.data, invitation.user_id) : undefined;
  if (invitation && invitee) return { invitation, invitee };
  await countUnknownCode(ctx, req);
  return undefined;
}

/** An SSO invitation: used once, and its account is active at once (it signs in through its IdP). False when another request used it first. */
export function acceptSsoInvitation(ctx: AppContext, invitation: InvitationRow, inviteeId: number): Promise<boolean> {
  return ctx.data.tx(async (t) => {
    if (!(await useInvitation(t, invitation.code_hash, ctx.now()))) return false;
    await activateUser(t, inviteeId, ctx.now());
    return true;
  });
}
