/**
 * The account's passkeys after a password reset (issue 35): a passkey signs in alone, so taking an
 * account back with a new password must show the owner every passkey, each removable. The reset (by
 * email or by text) earns a grant (table passkey_review_grants): bound to the browser that made it
 * (sha256 of its HttpOnly `fd_bind` nonce, services/browserBinding.ts), REVIEW_GRANT_TTL_MS long, and
 * REVIEW_GRANT_USES calls (a list or a removal each). Nothing else opens the list: not a session, not
 * a URL. The screen is the passkey offer's (screens/passkeyOffer.json, step `review`): every sign-in's
 * SUCCESS passes /passkey, also after the second factor that a reset may still ask for.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import Bowser from 'bowser';
import type { AppContext } from '../context.js';
import { insertReviewGrant, listPasskeys, openReviewGrant, removePasskeys, spendReviewGrant, type PasskeySummary } from '../db/passkeys.js';
import { bindBrowser } from './browserBinding.js';
import { acceptedSignalsOf, type PasskeySignals } from './passkeySignals.js';

const MINUTE = 60 * 1000;
/** Long enough for the second factor a reset may still ask for (a login token lives 10 minutes). */
export const REVIEW_GRANT_TTL_MS = 15 * MINUTE;
/** Calls one grant allows (the list, then removals one by one or all at once). */
export const REVIEW_GRANT_USES = 20;

/** A passkey as the owner sees it: when it was added and last used, and the browser and system that added it. */
export interface ReviewedPasskey {
  id: number;
  createdAt: number;
  lastUsedAt?: number;
  browser?: string;
  os?: string;
  synced: boolean;
}

/** Browser and system names (proper nouns, shown as they are) from the User-Agent that added the passkey. */
export function describeUserAgent(userAgent: string | null): { browser?: string; os?: string } {
  if (!userAgent) return {};
  const parsed = Bowser.parse(userAgent);
  const browser = parsed.browser.name?.slice(0, 60);
  const os = parsed.os.name?.slice(0, 60);
  return { ...(browser ? { browser } : {}), ...(os ? { os } : {}) };
}

const reviewed = (p: PasskeySummary): ReviewedPasskey => ({
  id: p.id,
  createdAt: p.createdAt,
  ...(p.lastUsedAt !== null ? { lastUsedAt: p.lastUsedAt } : {}),
  ...describeUserAgent(p.userAgent),
  synced: p.deviceType === 'multiDevice',
});

/** A successful reset: this browser may list and remove the account's passkeys for a while. */
export async function grantPasskeyReview(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number): Promise<void> {
  const now = ctx.now();
  await insertReviewGrant(ctx.data, { userId, browserHash: bindBrowser(ctx, req, reply), now, expiresAt: now + REVIEW_GRANT_TTL_MS, uses: REVIEW_GRANT_USES });
}

/** Whether this browser holds an open grant for this account and the account has passkeys to show (the offer screen's REVIEW). */
export async function reviewPending(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, userId: number): Promise<boolean> {
  const grant = await openReviewGrant(ctx.data, bindBrowser(ctx, req, reply), ctx.now());
  return grant?.userId === userId && (await listPasskeys(ctx.data, userId)).length > 0;
}

export type ReviewAnswer =
  { resultCode: 'SUCCESS'; passkeys: ReviewedPasskey[]; removed?: number; passkeySignals?: PasskeySignals } | { resultCode: 'NOT_ALLOWED' };

const NOT_ALLOWED = { resultCode: 'NOT_ALLOWED' } as const;

/** Spends one use of this browser's open grant; the account it names, or undefined. */
async function spendGrant(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<number | undefined> {
  const grant = await openReviewGrant(ctx.data, bindBrowser(ctx, req, reply), ctx.now());
  return grant && (await spendReviewGrant(ctx.data, grant.id, ctx.now())) ? grant.userId : undefined;
}

/** The account's passkeys, for the browser that made the reset. */
export async function reviewList(ctx: AppContext, req: FastifyRequest, reply: FastifyReply): Promise<ReviewAnswer> {
  const userId = await spendGrant(ctx, req, reply);
  if (userId === undefined) return NOT_ALLOWED;
  // This browser's password manager learns which still sign in (issue 37): the list is the truth.
  return { resultCode: 'SUCCESS', passkeys: (await listPasskeys(ctx.data, userId)).map(reviewed), ...(await signalsOf(ctx, req, userId)) };
}

/**
 * Removes one passkey (`passkey`: its id from the list) or all of them, and the sessions they signed
 * in; answers the passkeys left. An id that is not the account's removes nothing (removed: 0).
 */
export async function reviewRemove(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  which: { passkey?: number; all?: boolean },
): Promise<ReviewAnswer> {
  const userId = await spendGrant(ctx, req, reply);
  if (userId === undefined) return NOT_ALLOWED;
  const removal = which.all === true ? { all: true as const } : { ids: which.passkey === undefined ? [] : [which.passkey] };
  const answer = await ctx.data.tx(async (t) => {
    const removed = await removePasskeys(t, userId, removal);
    return { resultCode: 'SUCCESS' as const, removed: removed.length, passkeys: (await listPasskeys(t, userId)).map(reviewed) };
  });
  return { ...answer, ...(await signalsOf(ctx, req, userId)) };
}

/** The credentials still accepted, for this browser's password manager (services/passkeySignals.ts). */
async function signalsOf(ctx: AppContext, req: FastifyRequest, userId: number): Promise<{ passkeySignals?: PasskeySignals }> {
  const passkeySignals = await acceptedSignalsOf(ctx, req, userId);
  return passkeySignals ? { passkeySignals } : {};
}
