/**
 * The owner takes their passkeys back (issue 35): the list after a password reset with its removals
 * (passkeyReview, passkeyReviewRemove: services/passkeyReview.ts, authorised by the reset's grant for
 * this browser, not by a session) and "This wasn't me" from the "passkey added" email (passkeyNotMe:
 * services/passkeyNotMe.ts). All are POSTs that are never cached; docs/mfa.md "Passkeys the owner controls".
 */
import type { FastifyPluginAsync } from 'fastify';
import { rateLimited } from '../errors.js';
import { disownPasskey } from '../services/passkeyNotMe.js';
import { reviewList, reviewRemove } from '../services/passkeyReview.js';
import { authRateLimit, operationRoute } from './operation.js';

const passkeyReview: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };

  operationRoute(
    app,
    'passkeyReview',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return reviewList(ctx, req, reply);
    },
    limited,
  );

  operationRoute(
    app,
    'passkeyReviewRemove',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      // The contract takes exactly one of the two (the request is validated against it).
      return reviewRemove(ctx, req, reply, req.body);
    },
    limited,
  );

  operationRoute(
    app,
    'passkeyNotMe',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const answer = await disownPasskey(ctx, req, req.body.token);
      return 'rateLimited' in answer ? rateLimited(reply, answer.rateLimited, 'Too many unknown links') : answer;
    },
    limited,
  );
};
export default passkeyReview;
