/**
 * "This wasn't me" (issue 35): the "passkey added" email carries a link that removes that passkey and
 * ends everything that can act for the account (sessions, tokens and codes, trusted browsers:
 * services/revocation.ts revokeAccountTokens). The link is a signed token (services/signedTokens.ts,
 * purpose `passkey-not-me`) naming the account and the passkey (128 bits of its credential id's sha256, so a
 * row id reused later names nothing), valid NOT_ME_TTL_MS, spent once (used_tokens) in the transaction
 * that acts; its base is the configured public URL (publicUrl.ts), never a request header. Opening it
 * only shows a page (screens/passkeyNotMe.json): an email scanner's GET changes nothing; the owner's
 * click sends the POST. Links that are unknown, used or expired count against the address's budget of
 * unknown codes (LIMITS.unknownCodesPerAddressPerHour), like reset links.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { lockKey } from '../db/data.js';
import { listPasskeys, removePasskeys } from '../db/passkeys.js';
import { countUnknownCode, unknownCodesBlocked } from './accountFlows.js';
import { spendTokenId } from '../db/usedTokens.js';
import { safeEqual, sha256 } from '../crypto/primitives.js';
import { acceptedSignalsOf, type PasskeySignals } from './passkeySignals.js';
import { publicBase } from './publicUrl.js';
import { revokeAccountTokens } from './revocation.js';

const PURPOSE = 'passkey-not-me';
/** As long as an activation link: the owner may read the email days later. */
export const NOT_ME_TTL_MS = 7 * 24 * 60 * 60 * 1000;
/** The screen of the link (screens/passkeyNotMe.json route). */
export const NOT_ME_PATH = '/passkey/not-me';

/** Names a passkey among its account's (128 bits of its credential id's sha256: the link stays short). */
const credentialHash = (credentialId: string): string => sha256(credentialId).slice(0, 32);

/** The link of the "passkey added" email for this passkey of this account. */
export function notMeLink(ctx: AppContext, req: FastifyRequest, userId: number, credentialId: string): string {
  const token = ctx.tokens.sign(PURPOSE, NOT_ME_TTL_MS, { uid: userId, ch: credentialHash(credentialId) });
  return `${publicBase(ctx, req)}${NOT_ME_PATH}/${encodeURIComponent(token)}`;
}

export type NotMeAnswer =
  { resultCode: 'SUCCESS'; removed: number; passkeySignals?: PasskeySignals } | { resultCode: 'LINK_INVALID' } | { rateLimited: number };

/**
 * The owner confirmed: the passkey goes (if it is still there) and every session, token, code and
 * trusted browser of the account ends, in one transaction with the link's single use.
 */
export async function disownPasskey(ctx: AppContext, req: FastifyRequest, token: string): Promise<NotMeAnswer> {
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return { rateLimited: blocked };
  const payload = ctx.tokens.read(token, PURPOSE);
  const userId = payload?.uid;
  const passkeyHash = payload?.ch;
  if (!payload || typeof userId !== 'number' || typeof passkeyHash !== 'string') {
    await countUnknownCode(ctx, req);
    return { resultCode: 'LINK_INVALID' };
  }
  const removed = await ctx.data.tx(
    async (t) => {
      if (!(await spendTokenId(t, payload.jti, PURPOSE, payload.exp))) return undefined;
      const named = (await listPasskeys(t, userId)).filter((p) => safeEqual(credentialHash(p.credentialId), passkeyHash)).map((p) => p.id);
      const gone = await removePasskeys(t, userId, { ids: named });
      await revokeAccountTokens(ctx, userId, t);
      return gone.length;
    },
    { lock: lockKey('account', userId) },
  );
  if (removed === undefined) {
    await countUnknownCode(ctx, req);
    return { resultCode: 'LINK_INVALID' };
  }
  req.log.warn({ user: userId, removed }, "passkey disowned by its account's owner: removed, every session ended");
  // The owner's browser learns which still sign in: its password manager forgets the removed one (issue 37).
  const passkeySignals = await acceptedSignalsOf(ctx, req, userId);
  return { resultCode: 'SUCCESS', removed, ...(passkeySignals ? { passkeySignals } : {}) };
}
