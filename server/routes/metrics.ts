/** GET /metrics: the Prometheus text format (ops/metrics.ts); with METRICS_TOKEN only for its bearer token. */
import crypto from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';

const sha256 = (s: string) => crypto.createHash('sha256').update(s).digest();

const metrics: FastifyPluginAsync = async (app) => {
  const { registry } = app.fd.metrics;
  const token = app.fd.config.metricsToken;
  const expected = token ? sha256(`Bearer ${token}`) : undefined;
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
export default metrics;
