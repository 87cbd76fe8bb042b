/**
 * The built SPA (dist/app): hashed /assets/* are immutable; every other GET for a non-API path that
 * accepts text/html answers index.html (no-cache), the client router does the rest. A missing build
 * answers 503 "App not built: run npm run build". Unknown API paths answer 404 JSON.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from './errors.js';

export const API_PREFIXES = ['/ws/', '/account/', '/expired-account/', '/branding/', '/dev/'];
export const IMMUTABLE = 'public, max-age=31536000, immutable';

export function isApiPath(url: string): boolean {
  const p = url.split('?')[0] ?? '';
  return p === '/healthz' || p === '/ws' || p === '/dev' || API_PREFIXES.some((prefix) => p.startsWith(prefix));
}

/** A regular file strictly inside root for a URL path, or null. */
function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  if (decoded.includes('\0')) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** Security headers (CSP included) are added to every answer by server/security/headers.ts. */
export function registerSpa(app: FastifyInstance, staticDir: string): void {
  const root = path.resolve(staticDir);
  const indexFile = path.join(root, 'index.html');

  const send = (reply: FastifyReply, file: string, cacheControl: string) => {
    reply.header('Cache-Control', cacheControl);
    return reply.sendFile(path.relative(root, file), root, { cacheControl: false });
  };

  const notBuilt = (reply: FastifyReply) =>
    reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('App not built: run npm run build\n');

  app.get('/assets/*', async (req, reply) => {
    const file = fileInside(root, (req.url.split('?')[0] ?? ''));
    if (!file) {
      if (!fs.existsSync(indexFile)) return notBuilt(reply);
      return apiError(reply, 404, 'NOT_FOUND', 'No such asset');
    }
    return send(reply, file, IMMUTABLE);
  });

  app.setNotFoundHandler(async (req: FastifyRequest, reply: FastifyReply) => {
    const urlPath = req.url.split('?')[0] ?? '/';
    if (isApiPath(urlPath) || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return apiError(reply, 404, 'NOT_FOUND', `No route ${req.method} ${urlPath}`);
    }
    if (!fs.existsSync(indexFile)) return notBuilt(reply);
    const file = fileInside(root, urlPath);
    if (file && file !== indexFile) return send(reply, file, 'no-cache');
    const accept = String(req.headers.accept ?? '');
    if (accept.includes('text/html')) return send(reply, indexFile, 'no-cache');
    return apiError(reply, 404, 'NOT_FOUND', `No such file ${urlPath}`);
  });
}
