/**
 * Cross-site request forgery defence for the cookie-authenticated API. Two layers:
 * 1. The API parses application/json only (text/plain is removed in app.ts, form bodies exist only in the
 *    /dev plugins), and a cross-site page cannot send JSON without a CORS preflight, which we never grant.
 * 2. This hook: a state-changing call (any method but GET/HEAD/OPTIONS, plus the few GETs that change
 *    state, such as logout) is refused with 403 CSRF when the browser says it comes from elsewhere:
 *    Sec-Fetch-Site other than same-origin/none, or an Origin whose host is not the request's host.
 *    Calls without either header (curl, server-to-server, old browsers) pass: they carry no ambient
 *    browser credentials an attacker could ride on.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** GET calls that change state (SPEC §7: logout is a GET). */
export const STATE_CHANGING_GETS = ['/ws/account/logout'];

/** URL.host drops :80 / :443; the Host header may carry them. */
const withoutDefaultPort = (host: string): string => host.toLowerCase().replace(/:(80|443)$/, '');

export function crossSiteReason(req: FastifyRequest): string | undefined {
  const site = req.headers['sec-fetch-site'];
  if (typeof site === 'string' && site !== 'same-origin' && site !== 'none') return `Sec-Fetch-Site: ${site}`;
  const origin = req.headers.origin;
  if (typeof origin === 'string') {
    let host: string | undefined;
    try {
      const url = new URL(origin);
      host = url.protocol === 'http:' || url.protocol === 'https:' ? url.host : undefined;
    } catch {
      host = undefined; // 'null' (sandboxed frames, file:, data:) and garbage
    }
    // Host only, not scheme: behind a TLS-terminating proxy without trustProxy the request looks like http.
    if (host === undefined || host.toLowerCase() !== withoutDefaultPort(String(req.host ?? ''))) return `Origin: ${origin.slice(0, 200)}`;
  }
  return undefined;
}

export function isStateChanging(req: FastifyRequest): boolean {
  if (!SAFE_METHODS.has(req.method)) return true;
  const path = req.url.split('?')[0] ?? '';
  return req.method === 'GET' && STATE_CHANGING_GETS.includes(path);
}

export function registerCsrfProtection(app: FastifyInstance): void {
  app.addHook('onRequest', async (req, reply) => {
    if (!isStateChanging(req)) return;
    const reason = crossSiteReason(req);
    if (!reason) return;
    req.log.warn({ reason, method: req.method, url: req.url.split('?')[0] }, 'cross-site request refused');
    return apiError(reply, 403, 'CSRF', 'Cross-site request refused');
  });
}
