import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';
import { authRateLimit, operationRoute } from './operation.js';

/**
 * POST /ws/bot-check/challenge: a proof-of-work challenge of the "altcha" provider (services/botCheck.ts).
 * With another provider configured (reCAPTCHA Enterprise) there are no local challenges: 404.
 */
const botCheck: FastifyPluginAsync = async (app) => {
  operationRoute(
    app,
    'botCheckChallenge',
    async (req, reply) => {
      const { action } = req.body;
      const challenge = await app.fd.botCheck.challenge(action);
      if (!challenge) return apiError(reply, 404, 'NOT_FOUND', `This server's bot check is ${app.fd.botCheck.provider.name}: it issues no challenges`);
      return challenge;
    },
    { config: authRateLimit(app) },
  );
};
export default botCheck;
