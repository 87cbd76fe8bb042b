/**
 * What the funnel's hourly aggregates (migration 061) are keyed and bucketed by, in one place for the
 * intake (funnelAggregates.ts), the roll-up of raw events (funnelRollup.ts) and the report.
 */
export const HOUR_MS = 60 * 60 * 1000;
export const DAY_MS = 24 * HOUR_MS;

/** The start of the hour of `t`. */
export const hourOf = (t: number): number => Math.floor(t / HOUR_MS) * HOUR_MS;
/** The start of the UTC day of `t`: a report's period starts there (a visitor's hash is per day). */
export const dayOf = (t: number): number => Math.floor(t / DAY_MS) * DAY_MS;

/** Any version, kind or step (a real one matches the contract's patterns, which never allow it). */
export const ANY = '*';
/** How long funnel_seen keeps a visitor: its hash changes each UTC day, so two days leave a margin. */
export const SEEN_MS = 2 * DAY_MS;

/**
 * The buckets of the times (ms): 100 ms wide below 10 s, 1 s below 60 s, 10 s below 10 min, and one
 * bucket for longer. A median is read as the middle of its bucket: within 50 ms of the exact one
 * below 10 s.
 */
const BUCKETS = [
  { below: 10_000, width: 100 },
  { below: 60_000, width: 1000 },
  { below: 600_000, width: 10_000 },
] as const;
const LAST_BUCKET = 600_000;

/** The lower bound of the bucket of `ms`. */
export function timeBucket(ms: number): number {
  const bucket = BUCKETS.find((b) => ms < b.below);
  return bucket ? Math.floor(ms / bucket.width) * bucket.width : LAST_BUCKET;
}

/** The value a bucket stands for: its middle (the last one: its lower bound). */
export function bucketValue(bucket: number): number {
  const found = BUCKETS.find((b) => bucket < b.below);
  return found ? bucket + found.width / 2 : LAST_BUCKET;
}

/** timeBucket as SQL of an integer column (both engines divide integers to an integer). */
export function timeBucketSql(column: string): string {
  return `CASE ${BUCKETS.map((b) => `WHEN ${column} < ${b.below} THEN (${column} / ${b.width}) * ${b.width}`).join(' ')} ELSE ${LAST_BUCKET} END`;
}

/** The median of a histogram, as the median of its values read as their buckets' middles. */
export function histogramMedian(buckets: ReadonlyArray<{ bucket: number; n: number }>): number | null {
  const sorted = [...buckets].filter((b) => b.n > 0).sort((a, b) => a.bucket - b.bucket);
  const total = sorted.reduce((sum, b) => sum + b.n, 0);
  if (total === 0) return null;
  const at = (rank: number): number => {
    let seen = 0;
    for (const b of sorted) {
      seen += b.n;
      if (rank < seen) return bucketValue(b.bucket);
    }
    return bucketValue(sorted[sorted.length - 1]?.bucket ?? 0);
  };
  const low = at(Math.floor((total - 1) / 2));
  const high = at(Math.floor(total / 2));
  return low === high ? low : Math.round((low + high) / 2);
}
