/**
 * Expired trial: extension, purchase, speak-with-someone. The expired-trial session key (issued by
 * sign-in with TRIAL_EXPIRED) arrives in the cookie the browser stored; each key makes one request,
 * which is emailed to the account manager (outbox).
 */
import type { FastifyPluginAsync } from 'fastify';
import { claimExpiredTrialKey } from '../services/accountState.js';
import { requestHostname } from '../services/publicUrl.js';
import { operationRoute } from './operation.js';

/** The cookie name of src/engine/actions.ts (storeExpiredTrialSession). */
export const EXPIRED_TRIAL_COOKIE = 'expiredTrialSessionKey';

const REQUESTS = {
  expiredExtension: { request: 'EXTENSION', subject: 'Trial extension request', text: 'asks for a trial extension' },
  expiredPurchase: { request: 'PURCHASE', subject: 'Purchase request', text: 'is ready to buy' },
  expiredSpeakWithSomeone: { request: 'CALL', subject: 'Call request', text: 'asks for a call' },
} as const;

const expiredAccount: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  for (const [operation, spec] of Object.entries(REQUESTS) as [keyof typeof REQUESTS, (typeof REQUESTS)[keyof typeof REQUESTS]][]) {
    operationRoute(app, operation, async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const key = req.cookies[EXPIRED_TRIAL_COOKIE];
      if (!key || key.length > 256) return { resultCode: 'EXPIRED_SESSION_NOT_FOUND' };
      // Claimed once: of concurrent requests with one key, one wins.
      const claim = await claimExpiredTrialKey(ctx, key, spec.request);
      if (!claim.claimed) return { resultCode: claim.resultCode };
      const user = claim.user;
      if (user?.account_manager_email) {
        await ctx.outbox.send(ctx.data, {
          channel: 'email',
          to: user.account_manager_email,
          subject: spec.subject,
          text: `${user.email} (${user.company_name ?? 'no company'}) ${spec.text}.`,
          template: { kind: 'trial-request', request: spec.request, email: user.email, company: user.company_name ?? '' },
          hostname: requestHostname(req),
        });
      }
      return { resultCode: 'SUCCESS' };
    });
  }
};
export default expiredAccount;
