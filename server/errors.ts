/**
 * JSON errors for the API: every 4xx is {error, message}; a busy database is 503 BUSY with Retry-After;
 * true 500s are logged and answered without details.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DatabaseBusyError } from './db/data.js';

export interface ApiErrorBody {
  error: string;
  message: string;
  field?: string;
}

export function apiError(reply: FastifyReply, status: number, error: string, message: string, field?: string): FastifyReply {
  const body: ApiErrorBody = { error, message, ...(field ? { field } : {}) };
  return reply.code(status).type('application/json; charset=utf-8').send(body);
}

const CODE_MAP: Record<string, string> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'BAD_REQUEST',
  FST_ERR_CTP_BODY_TOO_LARGE: 'PAYLOAD_TOO_LARGE',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BAD_REQUEST',
  FST_ERR_CTP_INVALID_JSON_BODY: 'MALFORMED_JSON',
  FST_ERR_VALIDATION: 'VALIDATION',
};

function errorCode(err: FastifyError & { error?: unknown }, status: number): string {
  if (err.validation) return 'VALIDATION';
  if (err.code && CODE_MAP[err.code]) return CODE_MAP[err.code] as string;
  if (err instanceof SyntaxError) return 'MALFORMED_JSON';
  if (typeof err.error === 'string' && /^[A-Z_]+$/.test(err.error)) return err.error;
  if (status === 404) return 'NOT_FOUND';
  if (status === 405) return 'METHOD_NOT_ALLOWED';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  if (status === 429) return 'RATE_LIMITED';
  return 'BAD_REQUEST';
}

/** Transactions whose tries ran out, and single statements that lost a deadlock or a serialization (SQLSTATE 40001, 40P01). */
function isBusy(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return err instanceof DatabaseBusyError || code === '40001' || code === '40P01';
}

export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError & { error?: unknown }, req: FastifyRequest, reply: FastifyReply) => {
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message = err instanceof SyntaxError || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? 'Malformed JSON body' : String(err.message ?? 'Bad request');
      req.log.info({ code: err.code, status }, 'request rejected');
      return apiError(reply, status, errorCode(err, status), message);
    }
    if (isBusy(err)) {
      // Contention, not a fault: the same request a moment later goes through.
      req.log.warn({ err }, 'database busy');
      reply.header('Retry-After', '1');
      return apiError(reply, 503, 'BUSY', 'The server is busy; retry in 1 second');
    }
    req.log.error({ err }, 'unhandled error');
    return apiError(reply, 500, 'INTERNAL', 'Internal server error');
  });
}

/** 429 RATE_LIMITED with Retry-After (a limit of services/limits.ts was reached). */
export function rateLimited(reply: FastifyReply, retryAfterSeconds: number, what = 'Too many attempts'): FastifyReply {
  reply.header('Retry-After', String(retryAfterSeconds));
  return apiError(reply, 429, 'RATE_LIMITED', `${what}; retry in ${retryAfterSeconds} seconds`);
}
