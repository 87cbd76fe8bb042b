import type { FastifyPluginAsync } from 'fastify';
import { helpCenterHosts } from '../services/jwt.js';
import { publicBase } from '../services/publicUrl.js';
import { operationRoute } from './operation.js';

/** GET /ws/app-config: what differs per deployment. */
const appConfig: FastifyPluginAsync = async (app) => {
  operationRoute(app, 'appConfig', async (req, reply) => {
    const { appEnv, devTools, errorReportingDsn, selfRegistrationEnabled, helpCenter, academyHosts } = app.fd.config;
    reply.header('Cache-Control', 'no-cache');
    return {
      environment: appEnv,
      selfRegistrationEnabled,
      botCheck: app.fd.botCheck.provider.clientConfig(),
      ...(errorReportingDsn ? { errorReporting: { dsn: errorReportingDsn } } : {}),
      helpCenter: { ...helpCenterHosts(helpCenter, devTools, publicBase(app.fd, req)), ssoTokenPath: '/ws/helpcenter/sso-token' },
      ...(academyHosts.length ? { academy: { hosts: academyHosts } } : {}),
    };
  });
};
export default appConfig;
