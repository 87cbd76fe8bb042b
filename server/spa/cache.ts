/**
 * The app's pages as served (serve.ts): one variant per key (route pattern, page, language,
 * branding, year), built once and kept with its compressed forms. Compression stays off the request
 * path: a variant built for a request is compressed at once with fast settings (brotli 5, gzip 6: well
 * under a millisecond for a page), and the best compression (brotli 11, gzip 9: tens of milliseconds
 * of CPU) runs afterwards in zlib's thread pool and replaces the entry when it is done. Bounded: at most
 * `maxEntries` variants; beyond that a variant is built and sent, not kept (nor compressed again).
 */
import { createHash } from 'node:crypto';
import { promisify } from 'node:util';
import { brotliCompress, brotliCompressSync, constants, gzip, gzipSync } from 'node:zlib';

export interface PageVariant {
  etag: string;
  identity: Buffer;
  br: Buffer;
  gzip: Buffer;
}

export interface PageCacheStats {
  /** Variants kept. */
  entries: number;
  /** Pages built since start (a cache miss each). */
  builds: number;
  /** Variants whose best compression has replaced the fast one. */
  bestCompressed: number;
}

export interface PageCache {
  /** The variant of `key`: the cached one, or `build()` compressed fast (and kept, best compression to follow). */
  get(key: string, build: () => Buffer): PageVariant;
  /** Drops every variant (a new build of the app landed). */
  clear(): void;
  stats(): PageCacheStats;
  /** Resolves once every best compression started so far has finished (tests, shutdown). */
  settled(): Promise<void>;
}

export const PAGE_CACHE_ENTRIES = 2000;

declare module 'fastify' {
  interface FastifyInstance {
    /** The app's pages as served (server/spa/serve.ts): its figures for tests and benches. */
    pageCache: PageCache;
  }
}

const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
const brotliAt = (quality: number) => ({ params: { [constants.BROTLI_PARAM_QUALITY]: quality } });

export function createPageCache(maxEntries = PAGE_CACHE_ENTRIES): PageCache {
  let variants = new Map<string, PageVariant>();
  let builds = 0;
  let bestCompressed = 0;
  const pending = new Set<Promise<void>>();

  /** brotli 11 and gzip 9 in the thread pool; the entry is replaced only if it is still the one compressed. */
  const compressBest = (key: string, variant: PageVariant, generation: Map<string, PageVariant>) => {
    const done = Promise.all([brotliAsync(variant.identity, brotliAt(11)), gzipAsync(variant.identity, { level: 9 })])
      .then(([br, gz]) => {
        if (generation !== variants || variants.get(key) !== variant) return;
        variants.set(key, { ...variant, br, gzip: gz });
        bestCompressed += 1;
      })
      // The fast forms stay: a page is served either way.
      .catch(() => undefined)
      .finally(() => pending.delete(done));
    pending.add(done);
  };

  return {
    get(key, build) {
      const hit = variants.get(key);
      if (hit) return hit;
      builds += 1;
      const identity = build();
      const variant: PageVariant = {
        etag: `"${createHash('sha256').update(identity).digest('base64url').slice(0, 27)}"`,
        identity,
        br: brotliCompressSync(identity, brotliAt(5)),
        gzip: gzipSync(identity, { level: 6 }),
      };
      if (variants.size < maxEntries) {
        variants.set(key, variant);
        compressBest(key, variant, variants);
      }
      return variant;
    },
    clear() {
      variants = new Map();
    },
    stats: () => ({ entries: variants.size, builds, bestCompressed }),
    async settled() {
      while (pending.size > 0) await Promise.all([...pending]);
    },
  };
}
