import type { FastifyInstance, FastifyPluginAsync, FastifyRequest } from 'fastify';
import { helpCenterHosts } from '../services/jwt.js';
import { publicBase } from '../services/publicUrl.js';
import { operationRoute } from './operation.js';

/** What GET /ws/app-config answers this request; the app's pages carry the same (server/spa/html.ts). */
export function appConfigAnswer(app: FastifyInstance, req: FastifyRequest) {
  const { appEnv, devTools, errorReportingDsn, selfRegistrationEnabled, helpCenter, academyHosts } = app.fd.config;
  return {
    environment: appEnv,
    selfRegistrationEnabled,
    botCheck: app.fd.botCheck.provider.clientConfig(),
    ...(errorReportingDsn ? { errorReporting: { dsn: errorReportingDsn } } : {}),
    helpCenter: { ...helpCenterHosts(helpCenter, devTools, publicBase(app.fd, req)), ssoTokenPath: '/ws/helpcenter/sso-token' },
    ...(academyHosts.length ? { academy: { hosts: academyHosts } } : {}),
    // The browser adds traceparent to its calls only then (src/api/trace-context.ts).
    ...(app.fd.tracing.enabled ? { tracing: true as const } : {}),
  };
}

/** GET /ws/app-config: what differs per deployment. */
const appConfig: FastifyPluginAsync = async (app) => {
  operationRoute(app, 'appConfig', async (req, reply) => {
    reply.header('Cache-Control', 'no-cache');
    return appConfigAnswer(app, req);
  });
};
export default appConfig;
