/**
 * Cross-site request forgery defence for the cookie-authenticated API. Two layers:
 * 1. The API parses application/json only (text/plain is removed in app.ts; form bodies are parsed only
 *    by the plain forms of server/spa/forms.ts, the SAML assertion consumer and the /dev plugins), and a
 *    cross-site page cannot send JSON without a CORS preflight, which we never grant.
 * 2. This hook: a state-changing call (any method but GET/HEAD/OPTIONS, plus the GET routes that change
 *    state, such as logout) is refused with 403 CSRF when the browser says it comes from elsewhere:
 *    Sec-Fetch-Site other than same-origin/none, or an Origin that is not one of ours: its host name
 *    must be on the Host allow-list (hosts.ts), and it must be the request's own host or a configured
 *    public URL's origin. Never the Host header alone: under DNS rebinding a hostile page's Origin and
 *    Host agree (the allow-list refuses that Host before this hook, and this check refuses that Origin).
 *    Calls without either header (curl, server-to-server) pass: they carry no ambient browser
 *    credentials an attacker could ride on; an old browser's navigation to a state-changing GET does not.
 * The rule looks at the route the router chose (security/requestPath.ts), never at the raw URL, and a
 * HEAD of a state-changing GET is refused (405) whoever sends it: fastify would run the GET's handler.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { hostName, type HostAllowList } from './hosts.js';
import { routedPattern, routerPath } from './requestPath.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** Route patterns of GET calls that change state (SPEC §7: logout is a GET). */
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
const CROSS_SITE_POSTS = ['/sso/saml/:id/acs'];

/** A GET or HEAD the router gives to a route that changes state (HEAD runs the GET's handler). */
export function isStateChangingGet(req: FastifyRequest): boolean {
  const pattern = routedPattern(req);
  return (req.method === 'GET' || req.method === 'HEAD') && pattern !== undefined && STATE_CHANGING_GETS.includes(pattern);
}

/**
 * Decided on the route the router chose, not on the raw URL: `/ws/account/logou%74` is the logout route
 * to the router, and so it is here. Requests no route takes change nothing (404), whatever their path.
 */
export function isStateChanging(req: FastifyRequest): boolean {
  const pattern = routedPattern(req);
  if (req.method === 'POST' && pattern !== undefined && CROSS_SITE_POSTS.includes(pattern)) return false;
  if (!SAFE_METHODS.has(req.method)) return true;
  return isStateChangingGet(req);
}

/**
 * A browser without Sec-Fetch-Site (Safari before 16.4, Firefox before 90) sends neither it nor Origin
 * when a cross-site link opens a URL, and SameSite=Lax sends the session along: such a navigation (it
 * asks for HTML; the app's calls ask for JSON) to a state-changing GET is refused too.
 */
function unmarkedNavigation(req: FastifyRequest): boolean {
  if (req.headers['sec-fetch-site'] !== undefined || req.headers.origin !== undefined) return false;
  return /\btext\/html\b/i.test(String(req.headers.accept ?? ''));
}

export function registerCsrfProtection(app: FastifyInstance, hosts: HostAllowList): void {
  app.addHook('onRequest', async (req, reply) => {
    // HEAD must change nothing, yet fastify answers it with the GET's handler: refused for these routes.
    if (req.method === 'HEAD' && isStateChangingGet(req)) return apiError(reply.header('Allow', 'GET'), 405, 'METHOD_NOT_ALLOWED', 'Use GET');
    if (!isStateChanging(req)) return;
    const reason = crossSiteReason(req, hosts) ?? (isStateChangingGet(req) && unmarkedNavigation(req) ? 'a navigation without Sec-Fetch-Site' : undefined);
    if (!reason) return;
    req.log.warn({ reason, method: req.method, url: routerPath(req.url) }, 'cross-site request refused');
    return apiError(reply, 403, 'CSRF', 'Cross-site request refused');
  });
}
