import type { FastifyPluginAsync } from 'fastify';
import { operationRoute } from './operation.js';

/** GET /ws/app-config: what differs per deployment. */
const appConfig: FastifyPluginAsync = async (app) => {
  operationRoute(app, 'appConfig', async (_req, reply) => {
    const { appEnv, recaptchaSiteKey } = app.fd.config;
    reply.header('Cache-Control', 'no-cache');
    return {
      environment: appEnv,
      selfRegistrationEnabled: true,
      botCheck: recaptchaSiteKey ? { provider: 'recaptcha-enterprise', siteKey: recaptchaSiteKey } : { provider: 'local' },
    };
  });
};
export default appConfig;
