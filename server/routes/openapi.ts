import type { FastifyPluginAsync } from 'fastify';
import { buildOpenApiDocument, type OpenApiDocument } from '../openapi.js';
import { operationRoute } from './operation.js';

/** GET /ws/openapi.json: the contract as OpenAPI 3.1 (server/openapi.ts), built on first request. */
const openapi: FastifyPluginAsync = async (app) => {
  let document: OpenApiDocument | undefined;
  operationRoute(app, 'openApiDocument', async (_req, reply) => {
    document ??= buildOpenApiDocument();
    reply.header('Cache-Control', 'no-cache');
    return document;
  });
};
export default openapi;
