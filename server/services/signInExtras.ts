/**
 * What a second factor that just succeeded adds (issue 28), called once its session started:
 * at sign-in (a login token), trust this browser when the visitor asked for it
 * (services/trustedDevices.ts); after setting up a first factor (a set-up token), the right to be
 * shown a set of recovery codes (services/recoveryCodes.ts).
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { grantRecoveryCodes } from './recoveryCodes.js';
import { trustBrowserIfAsked } from './trustedDevices.js';
import type { UserRow } from './users.js';

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
