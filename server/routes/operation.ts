/**
 * Register a route for a contract operation: method, path and request schema come from
 * schemas/api/<operation>.json, so Fastify validates the request against the contract.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteHandlerMethod, RouteShorthandOptions } from 'fastify';
import type { ApiOperations } from '../../src/generated/api-types.js';
import { fastifyPath } from '../contract.js';

export type OperationName = keyof ApiOperations;
/** What the contract says the request of an operation holds (Fastify has validated it against the same schema). */
export type RequestOf<N extends OperationName> = ApiOperations[N]['request'];
/** The request as a handler sees it: the body (POST), or the path parameters and query (GET) typed by the contract. */
export type OperationRequest<N extends OperationName> = FastifyRequest<{ Body: RequestOf<N>; Params: RequestOf<N>; Querystring: RequestOf<N> }>;
export type OperationHandler<N extends OperationName> = (req: OperationRequest<N>, reply: FastifyReply) => unknown;

export function operationRoute<N extends OperationName>(
  app: FastifyInstance,
  operation: N,
  handler: OperationHandler<N>,
  options: RouteShorthandOptions = {},
): void {
  const op = app.fd.contract.get(operation);
  app.route({
    ...options,
    method: op.method,
    url: fastifyPath(op.path),
    schema: app.fd.contract.routeSchema(operation),
    config: { ...(options.config as object | undefined), operation } as RouteShorthandOptions['config'],
    // Fastify validated the request against the contract's schema, which the types are generated from.
    handler: handler as RouteHandlerMethod,
  });
}

/** Route config that applies the sign-in rate limit (per IP, per route; see buildApp option rateLimit). */
export function authRateLimit(app: FastifyInstance): RouteShorthandOptions['config'] {
  return { rateLimit: app.fd.config.authRateLimit } as RouteShorthandOptions['config'];
}
