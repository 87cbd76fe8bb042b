/**
 * The request log's conventions:
 * - ids: a proxy's or caller's `x-request-id` is kept when it looks like an id (letters, digits and
 *   `._:@-`, at most 128: nothing that could forge a log line), else a new UUID; either way it is the
 *   reqId of every line of the request and is returned in the answer's `x-request-id`;
 * - probes and scrapes (/healthz, /readyz, /metrics, every few seconds) log their request lines at
 *   debug, everything else at info (Fastify's "incoming request" / "request completed").
 */
import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { LogController, type FastifyInstance, type FastifyReply, type FastifyRequest, type FastifyServerOptions } from 'fastify';

export const REQUEST_ID_HEADER = 'x-request-id';
const USABLE = /^[A-Za-z0-9._:@-]{1,128}$/;
const PROBES = new Set(['/healthz', '/readyz', '/metrics']);

/** Fastify's genReqId: the caller's id when usable, else a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && USABLE.test(given) ? given : crypto.randomUUID();
}

const isProbe = (req: FastifyRequest) => PROBES.has(req.url.split('?')[0] ?? '');

/** Fastify's request lines, at debug for the probes. */
class ProbesAtDebug extends LogController {
  override incomingRequest(request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (isProbe(request)) request.log.debug({ req: request }, 'incoming request');
    else super.incomingRequest(request, reply, metadata);
  }

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply, metadata?: Record<string, unknown>): void {
    if (!error && isProbe(request)) reply.log.debug({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
    else super.requestCompleted(error, request, reply, metadata);
  }
}

/** The Fastify options these conventions take (one controller per instance). */
export function requestLogOptions(): Partial<FastifyServerOptions> {
  return { genReqId: requestIdOf, requestIdHeader: false, logController: new ProbesAtDebug() };
}

export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    reply.header(REQUEST_ID_HEADER, req.id);
  });
}
