/**
 * Cross-site request forgery defence for the cookie-authenticated API. Two layers:
 * 1. The API parses application/json only (text/plain is removed in app.ts, form bodies exist only in the
 *    /dev plugins), and a cross-site page cannot send JSON without a CORS preflight, which we never grant.
 * 2. This hook: a state-changing call (any method but GET/HEAD/OPTIONS, plus the few GETs that change
 *    state, such as logout) is refused with 403 CSRF when the browser says it comes from elsewhere:
 *    Sec-Fetch-Site other than same-origin/none, or an Origin that is not one of ours: its host name
 *    must be on the Host allow-list (hosts.ts), and it must be the request's own host or a configured
 *    public URL's origin. Never the Host header alone: under DNS rebinding a hostile page's Origin and
 *    Host agree (the allow-list refuses that Host before this hook, and this check refuses that Origin).
 *    Calls without either header (curl, server-to-server, old browsers) pass: they carry no ambient
 *    browser credentials an attacker could ride on.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { hostName, type HostAllowList } from './hosts.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GET calls that change state (SPEC §7: logout is a GET). */
export const STATE_CHANGING_GETS = ['/ws/account/logout'];

/** URL.host drops :80 / :443; the Host header may carry them. */
const withoutDefaultPort = (host: string): string => host.toLowerCase().replace(/:(80|443)$/, '');

export function crossSiteReason(req: FastifyRequest, hosts: HostAllowList): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    let url: URL | undefined;
    try {
      url = new URL(origin);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') url = undefined;
    } catch {
      url = undefined; // 'null' (sandboxed frames, file:, data:) and garbage
    }
    const refused = `Origin: ${origin.slice(0, 200)}`;
    if (!url || !hosts.allows(hostName(url.host))) return refused;
    // The request's own host (host and port, not scheme: behind a TLS proxy without TRUST_PROXY the
    // request looks like http), or a configured public URL (a proxy that rewrites Host).
    const own = url.host.toLowerCase() === withoutDefaultPort(String(req.host ?? ''));
    if (!own && !hosts.isPublicOrigin(url.origin)) return refused;
  }
  return undefined;
}

/**
 * The SAML assertion consumer (routes/sso.ts) is a cross-site form post by design (the IdP's page posts
 * it): what protects it is the signed assertion, its one-time ID and the browser binding of RelayState.
 */
const CROSS_SITE_POSTS = /^\/sso\/saml\/[0-9]{1,12}\/acs$/;

export function isStateChanging(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0] ?? '';
  if (req.method === 'POST' && CROSS_SITE_POSTS.test(path)) return false;
  if (!SAFE_METHODS.has(req.method)) return true;
  return req.method === 'GET' && STATE_CHANGING_GETS.includes(path);
}

export function registerCsrfProtection(app: FastifyInstance, hosts: HostAllowList): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!isStateChanging(req)) return;
    const reason = crossSiteReason(req, hosts);
    if (!reason) return;
    req.log.warn({ reason, method: req.method, url: req.url.split('?')[0] }, 'cross-site request refused');
    return apiError(reply, 403, 'CSRF', 'Cross-site request refused');
  });
}
