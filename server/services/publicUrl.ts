/**
 * The public base URL of links the server sends (emails, texts) or names (help-centre hosts, userSite):
 * PUBLIC_URL, or the public_url of the branding row of the host the visitor used. The Host header only
 * chooses among these configured values; a host without a row (Host: evil.test) gets PUBLIC_URL.
 * Never built from Host or X-Forwarded-Host.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';

/** Host name of the request without port, lower case (selects branding; never copied into a link). */
export function requestHostname(req: FastifyRequest): string {
  const host = String(req.headers.host ?? '')
    .trim()
    .toLowerCase();
  if (host.startsWith('[')) return host.slice(0, host.indexOf(']') + 1);
  return host.replace(/:\d+$/, '');
}

export function publicBase(ctx: AppContext, req: FastifyRequest): string {
  const row = ctx.db.prepare('SELECT public_url FROM branding WHERE hostname = ? AND is_enabled = 1').get(requestHostname(req)) as
    { public_url: string | null } | undefined;
  return row?.public_url ? row.public_url.replaceAll('{PORT}', String(ctx.config.publicPort)).replace(/\/+$/, '') : ctx.config.publicUrl;
}
