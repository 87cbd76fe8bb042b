/**
 * The public base URL of links the server sends (emails, texts) or names (help-centre hosts, userSite):
 * PUBLIC_URL, or the public_url of the branding row of the host the visitor used. The Host header only
 * chooses among these configured values; a host without a row (Host: evil.test) gets PUBLIC_URL.
 * Never built from Host or X-Forwarded-Host.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { requestHost } from '../security/hosts.js';

/**
 * Host name of the request without port, lower case (selects branding; never copied into a link). The
 * host Fastify sees: the Host header, or X-Forwarded-Host from a TRUST_PROXY proxy; only names on the
 * Host allow-list get this far (security/hosts.ts).
 */
export const requestHostname = requestHost;

/** The base URL of this request's links: its enabled branded host's public_url (from the branding cache), else PUBLIC_URL. */
export function publicBase(ctx: Pick<AppContext, 'branding' | 'config'>, req: FastifyRequest): string {
  const row = ctx.branding.row(requestHostname(req));
  return row?.is_enabled === 1 && row.public_url
    ? row.public_url.replaceAll('{PORT}', String(ctx.config.publicPort)).replace(/\/+$/, '')
    : ctx.config.publicUrl;
}

/**
 * Whether this request's cookies are Secure (and the session cookie `__Host-` prefixed) and HSTS is
 * sent: it came over https (directly, or through a TRUST_PROXY proxy that said so), or the public base
 * URL it belongs to is https. The second case covers a TLS proxy that TRUST_PROXY does not name: the
 * visitor's browser speaks https even though this server sees http (main.ts says so at start-up).
 */
export function secureRequest(ctx: Pick<AppContext, 'branding' | 'config'>, req: FastifyRequest): boolean {
  return req.protocol === 'https' || publicBase(ctx, req).startsWith('https:');
}
