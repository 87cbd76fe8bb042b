/**
 * The build's files as they are (dist/app): which file a URL path names, how a file is sent, which
 * precompressed form (.br/.gz written by the build, scripts/vite-static.ts) a request accepts, and the
 * answer while there is no build.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyReply } from 'fastify';

/** Hashed /assets/* never change under their name. */
export const IMMUTABLE = 'public, max-age=31536000, immutable';

/** A regular file strictly inside root for a URL path, or null. */
export function fileInside(root: string, urlPath: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(urlPath);
  } catch {
    return null;
  }
  // Dot-files and dot-directories (the build's .vite/ manifests) are not served.
  if (decoded.includes('\0') || /(^|\/)\./.test(path.posix.normalize('/' + decoded))) return null;
  const full = path.resolve(root, '.' + path.posix.normalize('/' + decoded));
  if (full !== root && !full.startsWith(root + path.sep)) return null;
  try {
    return fs.statSync(full).isFile() ? full : null;
  } catch {
    return null;
  }
}

/** br, then gzip, then none, as the request accepts (q=0 refuses). */
export function pickEncoding(acceptEncoding: string): 'br' | 'gzip' | 'identity' {
  const accepted = new Map<string, number>();
  for (const part of acceptEncoding.toLowerCase().split(',')) {
    const [name = '', ...params] = part.trim().split(';');
    const q = Number(/q=([\d.]+)/.exec(params.join(';'))?.[1] ?? 1);
    accepted.set(name.trim(), Number.isFinite(q) ? q : 0);
  }
  const ok = (name: string) => (accepted.get(name) ?? accepted.get('*') ?? 0) > 0;
  if (ok('br')) return 'br';
  if (ok('gzip')) return 'gzip';
  return 'identity';
}

/** A file of the build under root (@fastify/static picks its .br/.gz sibling), with this Cache-Control. */
export function sendFile(reply: FastifyReply, root: string, file: string, cacheControl: string) {
  reply.header('Cache-Control', cacheControl);
  return reply.sendFile(path.relative(root, file), root, { cacheControl: false });
}

/** The answer while dist/app has no index.html. */
export const notBuilt = (reply: FastifyReply) =>
  reply.code(503).header('Cache-Control', 'no-store').type('text/plain; charset=utf-8').send('App not built: run npm run build\n');
