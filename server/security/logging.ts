/**
 * Logs never carry secrets. Fastify logs each request's method and URL; URLs carry codes
 * (/resetPassword/{code}, /activate/user/{code}, /register/{trialLinkCode}, /passkey/not-me/{token}) and query values (IdP
 * request tokens, state). Headers carry cookies. Bodies are never logged (Fastify does not log them,
 * and no route does). This module redacts the rest.
 */
import type { FastifyServerOptions } from 'fastify';

export const REDACTED = '[redacted]';

const SECRET_PATH = /^(\/(?:resetPassword|activate\/user|activate\/division|register|account\/register|passkey\/not-me)\/)[^/?#]+/;

/** A URL with its secret path segment and every query value replaced by [redacted]. */
export function redactUrl(url: string): string {
  const q = url.indexOf('?');
  const path = (q === -1 ? url : url.slice(0, q)).replace(SECRET_PATH, `$1${REDACTED}`);
  if (q === -1) return path;
  const query = url
    .slice(q + 1)
    .split('&')
    .map((pair) => {
      const eq = pair.indexOf('=');
      return eq === -1 ? pair : `${pair.slice(0, eq)}=${REDACTED}`;
    });
  return `${path}?${query.join('&')}`;
}

/** pino redact paths: credentials in headers and in any object a route might log. */
export const REDACT_PATHS = [
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  '*.password',
  '*.passwordConfirm',
  '*.code',
  '*.secondaryCode',
  '*.recaptchaToken',
  '*.loginToken',
  '*.userToken',
  '*.verificationCode',
  '*.jwt',
  '*.token',
];

interface LoggedRequest {
  method?: string;
  url?: string;
  hostname?: string;
  ip?: string;
  id?: unknown;
}

/** The Fastify logger option with redaction added; false stays false. */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : (logger as Record<string, unknown>);
  return {
    ...base,
    redact: { paths: REDACT_PATHS, censor: REDACTED },
    serializers: {
      ...(base.serializers as Record<string, unknown> | undefined),
      req: (req: LoggedRequest) => ({ method: req.method, url: redactUrl(String(req.url ?? '')), host: req.hostname, remoteAddress: req.ip, id: req.id }),
    },
  } as FastifyServerOptions['logger'];
}
