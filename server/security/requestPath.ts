/**
 * A request's path as Fastify's router sees it, for every rule that decides by path (CSRF, the
 * no-store default, API or page). The raw URL is not what the router routes: find-my-way decodes
 * percent-encoding first (`/ws/account/logou%74` is the logout route), so a rule on the raw URL can be
 * walked around. Two views, the same as the router's by construction:
 * - `routedPattern`: the pattern of the route the router chose (`/ws/account/logout`), when one did;
 * - `routerPath`: the path find-my-way matches, for requests no route took (the not-found handler):
 *   the part before `?` or `#`, decoded as decodeURI does (reserved characters such as `%2F` stay
 *   encoded, as in the router). The router is case-sensitive and keeps dot segments, duplicate and
 *   trailing slashes and `;` (fastify's defaults, server/app.ts routerOptions), so this does too.
 */
import type { FastifyRequest } from 'fastify';
import { API_PREFIXES } from '../../catalogue/build-contract.js';

/** The server's own endpoints besides API_PREFIXES: never a page, never cached unless a route says so. */
const API_PATHS = ['/healthz', '/readyz', '/metrics', '/ws', '/dev'];

/** Whether a path (query ignored) is one of the API's. */
export function isApiPath(url: string): boolean {
  const p = url.split('?')[0] ?? '';
  return API_PATHS.includes(p) || API_PREFIXES.some((prefix) => p.startsWith(prefix));
}

/** The path find-my-way matches for a request target: before `?`/`#`, decodeURI'd; undecodable: as it came. */
export function routerPath(url: string): string {
  const end = url.search(/[?#]/);
  const raw = end === -1 ? url : url.slice(0, end);
  if (!raw.includes('%')) return raw;
  try {
    // %25 stays %25 (find-my-way re-encodes it before decodeURI, so that it never becomes a bare '%').
    return decodeURI(raw.replace(/%25/g, '%2525'));
  } catch {
    return raw;
  }
}

/** The pattern of the route the router chose for this request, or undefined (the not-found handler). */
export function routedPattern(req: FastifyRequest): string | undefined {
  return req.routeOptions?.url;
}

/** Whether the request is for the API as the router sees it (its route, or the path it matched), or as it was written. */
export function isApiRequest(req: FastifyRequest): boolean {
  const pattern = routedPattern(req);
  return (pattern !== undefined && isApiPath(pattern)) || isApiPath(routerPath(req.url)) || isApiPath(req.url);
}
