/**
 * The ways around a lost second factor, and past it on a trusted browser: sign-in with a recovery
 * code (mfaRecoveryLogin), a new set of codes (recoveryCodesCreate) and "Don't ask again on this
 * device" (mfaTrustDevice). Services: recoveryCodes.ts, trustedDevices.ts, loginTokens.ts;
 * docs/mfa.md "Recovery codes" and "Trusted browsers".
 */
import type { FastifyPluginAsync } from 'fastify';
import { openLoginToken, reserveLoginTokenTry } from '../services/loginTokens.js';
import { notifyRecoveryCodeUsed } from '../services/notifications.js';
import { createRecoveryCodes, grantRecoveryCodes, spendRecoveryCodeForToken } from '../services/recoveryCodes.js';
import { completeAuthentication } from '../services/signIn.js';
import { recordTrustChoice, trustBrowserIfAsked } from '../services/trustedDevices.js';
import { authRateLimit, operationRoute } from './operation.js';

const INVALID_LOGIN_TOKEN = { resultCode: 'INVALID_LOGIN_TOKEN' } as const;

const accountRecovery: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };

  operationRoute(
    app,
    'mfaRecoveryLogin',
    async (req, reply) => {
      const { loginToken, recoveryCode } = req.body;
      const open = await openLoginToken(ctx, req, loginToken, 'MFA');
      // The try is counted before the code is compared: the token's 5 and the account's hourly budget.
      if (!open || !(await reserveLoginTokenTry(ctx, open.row))) return INVALID_LOGIN_TOKEN;
      const userId = open.user.id;
      // The code and the token are spent together, or neither (a right code is not lost to a race).
      const spent = await spendRecoveryCodeForToken(ctx, open, recoveryCode);
      if ('refused' in spent) return { resultCode: spent.refused };
      const left = spent.left;
      const result = await completeAuthentication(ctx, req, reply, open.user, open.row.stay_signed_in === 1);
      // Refused by the account's state (the trial ended, the account moved … since the password): no
      // session, so no trust and no new set; the owner still hears that a code was spent.
      if (result.resultCode === 'SUCCESS') {
        await trustBrowserIfAsked(ctx, req, reply, open.row.token_hash, open.user);
        // Signed in with a code: this browser may be shown a new set (the old one is running out).
        await grantRecoveryCodes(ctx, req, reply, userId);
      }
      await notifyRecoveryCodeUsed(ctx, ctx.data, req, open.user, left);
      return { ...result, recoveryCodesLeft: left };
    },
    limited,
  );

  operationRoute(
    app,
    'mfaTrustDevice',
    async (req) => {
      const { loginToken, trust } = req.body;
      const open = await openLoginToken(ctx, req, loginToken, 'MFA');
      if (!open) return INVALID_LOGIN_TOKEN;
      const days = await recordTrustChoice(ctx, open.row.token_hash, open.user.organization_id, trust);
      return { resultCode: 'SUCCESS', days };
    },
    limited,
  );

  operationRoute(
    app,
    'recoveryCodesCreate',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const current = await ctx.sessions.current(req);
      if (!current) return { resultCode: 'NOT_ALLOWED' };
      const created = await createRecoveryCodes(ctx, req, reply, current.user.id);
      if (!created) return { resultCode: 'NOT_ALLOWED' };
      return { resultCode: 'SUCCESS', codes: created.codes, userType: current.user.user_type };
    },
    limited,
  );
};
export default accountRecovery;
