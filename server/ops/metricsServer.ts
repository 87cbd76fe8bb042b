/**
 * GET /metrics and the METRICS_PORT listener, as ops/metricsExposure.ts decides where they answer.
 */
import crypto from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { apiError } from '../errors.js';
import health from '../routes/health.js';
import { registerRequestLog, requestLogOptions } from './requestLog.js';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest();

/** GET /metrics in the Prometheus text format; with a token only for its bearer. Scrapes log at debug (ops/requestLog.ts). */
export const metricsRoute: FastifyPluginAsync<{ token?: string | undefined }> = async (app, options) => {
  const { registry } = app.fd.metrics;
  const expected = options.token ? sha256(`Bearer ${options.token}`) : undefined;
  app.get('/metrics', async (req, reply) => {
    // Hashes of equal length: the comparison takes the same time whatever was sent.
    if (expected && !crypto.timingSafeEqual(sha256(req.headers.authorization ?? ''), expected)) {
      reply.header('www-authenticate', 'Bearer');
      return apiError(reply, 401, 'UNAUTHENTICATED', 'GET /metrics needs the METRICS_TOKEN bearer token');
    }
    const text = await registry.metrics();
    return reply.header('content-type', registry.contentType).header('cache-control', 'no-store').send(text);
  });
};

/** The METRICS_PORT listener: /metrics, /healthz and /readyz of the same instance, any Host, nothing else (JSON 404). */
export async function createMetricsServer(ctx: AppContext, options: { token?: string | undefined; logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const server = Fastify({ loggerInstance: options.logger, ...requestLogOptions() });
  server.decorate('fd', ctx);
  registerRequestLog(server);
  await server.register(health);
  await server.register(metricsRoute, { token: options.token });
  server.setNotFoundHandler((_req, reply) => apiError(reply, 404, 'NOT_FOUND', 'This listener serves /metrics, /healthz and /readyz only'));
  return server;
}
