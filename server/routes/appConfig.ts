import type { FastifyPluginAsync } from 'fastify';
import { helpCenterHosts } from '../services/jwt.js';
import { operationRoute } from './operation.js';

/** GET /ws/app-config: what differs per deployment. */
const appConfig: FastifyPluginAsync = async (app) => {
  operationRoute(app, 'appConfig', async (req, reply) => {
    const { appEnv, recaptchaSiteKey, devTools, errorReportingDsn, selfRegistrationEnabled } = app.fd.config;
    reply.header('Cache-Control', 'no-cache');
    return {
      environment: appEnv,
      selfRegistrationEnabled,
      botCheck: recaptchaSiteKey ? { provider: 'recaptcha-enterprise', siteKey: recaptchaSiteKey } : { provider: 'local' },
      ...(errorReportingDsn ? { errorReporting: { dsn: errorReportingDsn } } : {}),
      helpCenter: { ...helpCenterHosts(devTools, `${req.protocol}://${req.host}`), ssoTokenPath: '/ws/helpcenter/sso-token' },
    };
  });
};
export default appConfig;
