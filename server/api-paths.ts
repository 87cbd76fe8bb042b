import { API_PREFIXES } from '../catalogue/build-contract.js';

/**
 * Which requests are the server's own (its API, health and metrics), not pages of the app: page
 * serving answers them 404 JSON instead of a page (server/spa.ts), the security headers forbid their
 * caching (server/security/headers.ts). A module of its own, so neither imports the other.
 */
export function isApiPath(url: string): boolean {
  const p = url.split('?')[0] ?? '';
  return p === '/healthz' || p === '/readyz' || p === '/metrics' || p === '/ws' || p === '/dev' || API_PREFIXES.some((prefix) => p.startsWith(prefix));
}
