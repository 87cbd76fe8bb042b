/**
 * Every contract operation that no route file implements yet answers 501 {error:"NOT_IMPLEMENTED"},
 * so the whole contract is visible. Registered after all other routes (see app.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import { fastifyPath } from '../contract.js';

const notImplemented: FastifyPluginAsync = async (app) => {
  for (const op of app.fd.contract.operations.values()) {
    const url = fastifyPath(op.path);
    if (app.hasRoute({ method: op.method, url })) continue;
    app.route({
      method: op.method,
      url,
      config: { operation: op.operation },
      handler: async (_req, reply) =>
        reply.code(501).send({ error: 'NOT_IMPLEMENTED', message: `${op.operation} (${op.method} ${op.path}) is not implemented yet` }),
    });
  }
};
export default notImplemented;
