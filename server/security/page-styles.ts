import type { FastifyRequest } from 'fastify';

/**
 * Build-time hashes of the inline <style> blocks a page of the app carries (server/spa/html.ts inlines the
 * entry's CSS): server/security/headers.ts adds exactly those to the page's style-src, nothing else
 * inline ('unsafe-inline' never). Its own module: server/spa/ sets them, headers.ts reads them.
 */
const pageStyleHashes = new WeakMap<FastifyRequest, string[]>();

/** The app's page answering this request carries inline <style> blocks with these hashes (.vite/preload.json). */
export function allowPageStyles(req: FastifyRequest, hashes: string[]): void {
  if (hashes.length) pageStyleHashes.set(req, hashes);
}

/** The hashes allowPageStyles recorded for this request, if any. */
export function pageStylesOf(req: FastifyRequest): string[] | undefined {
  return pageStyleHashes.get(req);
}
