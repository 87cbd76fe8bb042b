/**
 * A store for @fastify/rate-limit that keeps its counters in the database (services/limits.ts, table
 * counters, scope 'ip'), so every instance on one database (SQLite file or PostgreSQL) shares them
 * (the default store is per-process memory: a second instance started from zero). Routes share one bucket per address through the `groupId` of their config.
 */
import type { Queryable } from '../db/data.js';
import type { Limits } from '../services/limits.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number): void;
  child(): RateLimitStore;
}

/** The class @fastify/rate-limit instantiates (it calls `new store(options)`), bound to our counters. */
export function databaseRateLimitStore(limits: Limits, data: Queryable, now: () => number): new () => RateLimitStore {
  return class DatabaseRateLimitStore implements RateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      limits.hit(data, 'ip', key, timeWindow).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: Math.max(0, resetAt - now()) }),
        (error: Error) => callback(error),
      );
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      limits.peek(data, 'ip', key, timeWindow).then(
        ({ count, resetAt }) => callback(null, { current: count, ttl: count ? Math.max(0, resetAt - now()) : 0 }),
        (error: Error) => callback(error),
      );
    }

    child(): RateLimitStore {
      return this;
    }
  };
}
