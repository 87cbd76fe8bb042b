import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../../errors.js';

/**
 * Why the studio page has its own policy: its live preview compiles the edited JSON Schemas with
 * ajv at run time (the app uses build-time precompiled validators, which cannot exist for a schema
 * being typed), and ajv compiles to functions: 'unsafe-eval'. CodeMirror writes its styles into
 * <style> elements: 'unsafe-inline' for styles only. The hover renderer of codemirror-json-schema
 * (shiki) instantiates WebAssembly: 'wasm-unsafe-eval'. Nothing else is loosened, and this header
 * is sent only for /dev/studio, which does not exist in production.
 */
export const STUDIO_CSP = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-eval' 'wasm-unsafe-eval'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data: blob:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "frame-src 'none'",
  "object-src 'none'",
  "base-uri 'self'",
  "frame-ancestors 'none'",
].join('; ');

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.wasm': 'application/wasm',
  '.woff2': 'font/woff2',
};

function sendFile(reply: FastifyReply, file: string, cache: string): FastifyReply {
  const type = TYPES[path.extname(file)] ?? 'application/octet-stream';
  return reply.header('Cache-Control', cache).type(type).send(fs.readFileSync(file));
}

/** GET /dev/studio (the page, with STUDIO_CSP) and /dev/studio/assets/* (its bundle, a separate vite build). */
export function registerBundle(app: FastifyInstance, bundle: string): void {
  const page = async (_req: FastifyRequest, reply: FastifyReply) => {
    const index = path.join(bundle, 'index.html');
    if (!fs.existsSync(index)) {
      return reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('Studio not built: run npm run build\n');
    }
    reply.header('Content-Security-Policy', STUDIO_CSP);
    return sendFile(reply, index, 'no-cache');
  };
  // The security headers hook applies a route's own policy from its config (server/security/headers.ts).
  const config = { contentSecurityPolicy: STUDIO_CSP };
  app.get('/dev/studio', { config }, page);
  app.get('/dev/studio/', { config }, page);

  app.get<{ Params: { '*': string } }>('/dev/studio/assets/*', async (req, reply) => {
    const rel = decodeURIComponent(req.params['*'] ?? '');
    const file = path.resolve(bundle, 'assets', rel);
    if (!file.startsWith(path.join(bundle, 'assets') + path.sep) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      return apiError(reply, 404, 'NOT_FOUND', 'No such asset');
    }
    return sendFile(reply, file, 'public, max-age=31536000, immutable');
  });
}
