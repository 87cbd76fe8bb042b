/**
 * The passkey step of a sign-in, decided with its answer (issue 37): a SUCCESS of login, passkeyLogin,
 * mfa-login, u2f-login or reset-password-commit carries `passkeyOffer`: REVIEW right after a password
 * reset in this browser when the account has passkeys (services/passkeyReview.ts), OFFER when the
 * account may add one (services/passkeys.ts passkeyOfferAtSignIn: not single sign-on, no passkey, not
 * declined), nothing otherwise. The app then creates the passkey silently where the browser can
 * (conditional create), opens /passkey where it cannot, and goes straight on when the answer says
 * nothing: no screen is loaded and no call made to find out (src/app/after-sign-in.ts).
 * Asked after the sign-in's transaction (it reads with ctx.data).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/accounts.js';
import { reviewPending } from './passkeyReview.js';
import { passkeyOfferAtSignIn } from './passkeys.js';
import type { LoginResult } from './signIn.js';

export async function withPasskeyStep(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow, result: LoginResult): Promise<LoginResult> {
  if (result.resultCode !== 'SUCCESS') return result;
  if (await reviewPending(ctx, req, reply, user.id)) return { ...result, passkeyOffer: 'REVIEW' };
  return (await passkeyOfferAtSignIn(ctx, user)) === 'OFFER' ? { ...result, passkeyOffer: 'OFFER' } : result;
}
