import type { FastifyPluginAsync } from 'fastify';

const health: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ ok: true }));
};
export default health;
