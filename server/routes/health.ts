import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';

/**
 * Liveness (/healthz: the process answers) and readiness (/readyz: the database answers too). Probes
 * come every few seconds: their requests log at debug (ops/requestLog.ts), a database that does not
 * answer at warn.
 */
const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ ok: true }));
  app.get('/readyz', async (req, reply) => {
    try {
      await app.fd.data.ping(2000);
    } catch (error) {
      req.log.warn({ err: error }, 'readiness: the database does not answer');
      return apiError(reply.header('cache-control', 'no-store'), 503, 'NOT_READY', 'The database does not answer');
    }
    return reply.header('cache-control', 'no-store').send({ ok: true, database: app.fd.data.engine });
  });
};
export default health;
