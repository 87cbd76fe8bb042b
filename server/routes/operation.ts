/**
 * Register a route for a contract operation: method, path and request schema come from
 * schemas/api/<operation>.json, so Fastify validates the request against the contract.
 */
import type { FastifyInstance, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import { fastifyPath } from '../contract.js';

export function operationRoute(app: FastifyInstance, operation: string, handler: RouteHandlerMethod, options: RouteShorthandOptions = {}): void {
  const op = app.fd.contract.get(operation);
  app.route({
    ...options,
    method: op.method,
    url: fastifyPath(op.path),
    schema: app.fd.contract.routeSchema(operation),
    config: { ...(options.config as object | undefined), operation } as RouteShorthandOptions['config'],
    handler,
  });
}

/** Route config that applies the sign-in rate limit (per IP, per route; see buildApp option rateLimit). */
export function authRateLimit(app: FastifyInstance): RouteShorthandOptions['config'] {
  return { rateLimit: app.fd.config.authRateLimit } as RouteShorthandOptions['config'];
}
