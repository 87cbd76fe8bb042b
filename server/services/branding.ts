/**
 * The branding rows (one per branded host name) as every request needs them: the Host allow-list
 * (security/hosts.ts), the public base URL of links (publicUrl.ts), /branding/generalData and the SPA
 * shell. Asking the database on every request would add a query (a round trip on PostgreSQL) to each
 * one, so the whole table, a few rows, is kept here and read again when it is older than `ttlMs`:
 * a host added by `npm run admin` (or on another instance) is served within that time everywhere.
 * This instance's own changes (the demo seed) call refresh() at once.
 */
import { brandingRows, type BrandingRow } from '../db/branding.js';
import type { Queryable } from '../db/data.js';

export type { BrandingRow };

/** How long a read of the branding table is used before the next request reads it again (ms). */
export const BRANDING_CACHE_MS = 5000;
/** After a failed read, the old rows are used this long before trying again (a database restart must not slow every request). */
const RETRY_AFTER_FAILURE_MS = 1000;

export interface BrandingCache {
  /** The row of a host name (lower case, no port), if it has one. */
  row(hostname: string): BrandingRow | undefined;
  /** Every row (the public URLs of the Origin check). */
  rows(): readonly BrandingRow[];
  /** Resolves once the rows are at most ttlMs old (one read in flight, shared by every request that waits). */
  fresh(): Promise<void>;
  /** Reads the table now (after this instance changed it). */
  refresh(): Promise<void>;
}

export interface BrandingCacheOptions {
  ttlMs?: number;
  /** Told when a read fails (the old rows stay in use). */
  onError?: (error: unknown) => void;
  /** Monotonic clock (default performance.now: never the app's clock, which tests move). */
  clock?: () => number;
}

export function createBrandingCache(data: Queryable, options: BrandingCacheOptions = {}): BrandingCache {
  const ttl = options.ttlMs ?? BRANDING_CACHE_MS;
  const clock = options.clock ?? (() => performance.now());
  let byHost = new Map<string, BrandingRow>();
  let all: BrandingRow[] = [];
  let validUntil = -Infinity;
  let loading: Promise<void> | null = null;

  const load = (): Promise<void> => {
    loading ??= brandingRows(data)
      .then(
        (rows) => {
          all = rows;
          byHost = new Map(rows.map((r) => [r.hostname.toLowerCase(), r]));
          validUntil = clock() + ttl;
        },
        (error: unknown) => {
          validUntil = clock() + RETRY_AFTER_FAILURE_MS;
          options.onError?.(error);
        },
      )
      .finally(() => {
        loading = null;
      });
    return loading;
  };

  return {
    row: (hostname) => byHost.get(hostname.toLowerCase()),
    rows: () => all,
    fresh: () => (clock() < validUntil ? Promise.resolve() : load()),
    async refresh() {
      // A read already in flight may predate the change: wait for it, then read again.
      if (loading) await loading;
      await load();
    },
  };
}
