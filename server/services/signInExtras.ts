/**
 * The end of a second-factor step: the token spent and the session started (finishSecondFactor), then
 * what a second factor that just succeeded adds (issue 28), called once its session started: at
 * sign-in (a login token), trust this browser when the visitor asked for it
 * (services/trustedDevices.ts); after setting up a first factor (a set-up token), the right to be
 * shown a set of recovery codes (services/recoveryCodes.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { UserRow } from '../db/accounts.js';
import type { Queryable } from '../db/data.js';
import type { OpenLoginToken } from './loginTokens.js';
import { codeAccepted } from './mfa.js';
import { withPasskeyStep } from './passkeyStep.js';
import { grantRecoveryCodes } from './recoveryCodes.js';
import { countSignIn, finishWithToken, type LoginResult } from './signIn.js';
import { trustBrowserIfAsked } from './trustedDevices.js';

export async function afterSecondFactor(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  token: { purpose: 'MFA' | 'SETUP_MFA'; token_hash: string },
  user: UserRow,
): Promise<void> {
  if (token.purpose === 'MFA') await trustBrowserIfAsked(ctx, req, reply, token.token_hash, user);
  else await grantRecoveryCodes(ctx, req, reply, user.id);
}

/**
 * A right code under a login or set-up token: the account's try is given back, then the token's last
 * step (spent once, with its effects on the transaction, then the session: signIn.ts finishWithToken);
 * a token another request spent first is invalid. Then what the finished second factor adds. Sign-ins
 * (login tokens) are counted for /metrics.
 */
export async function finishSecondFactor(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  open: OpenLoginToken,
  effects?: (t: Queryable) => Promise<void>,
): Promise<LoginResult> {
  await codeAccepted(ctx, open.user.id);
  const result = (await finishWithToken(ctx, req, reply, open, effects)) ?? {
    resultCode: open.row.purpose === 'MFA' ? 'INVALID_LOGIN_TOKEN' : 'INVALID_USER_TOKEN',
  };
  if (result.resultCode === 'SUCCESS') await afterSecondFactor(ctx, req, reply, open.row, open.user);
  // The passkey step comes with a sign-in's answer (issue 37); MFA set-up goes to its recovery codes first.
  return open.row.purpose === 'MFA' ? countSignIn(ctx, await withPasskeyStep(ctx, req, reply, open.user, result)) : result;
}
