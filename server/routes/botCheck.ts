import type { FastifyPluginAsync } from 'fastify';
import { authRateLimit, operationRoute } from './operation.js';

/** POST /ws/bot-check/token: token of the "local" bot-check provider (HMAC, 2 minutes, single use). */
const botCheck: FastifyPluginAsync = async (app) => {
  operationRoute(app, 'botCheckToken', async (req) => {
    const { action } = req.body as { action: string };
    return { token: app.fd.botCheck.issue(action) };
  }, { config: authRateLimit(app) });
};
export default botCheck;
