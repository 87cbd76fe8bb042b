/**
 * A store for @fastify/rate-limit that keeps its counters in SQLite (services/limits.ts), so every
 * instance on the database shares them (the default store is per-process memory: a second instance
 * started from zero). Routes share one bucket per address through the `groupId` of their config.
 */
import type { Limits } from '../services/limits.js';

type Callback = (error: Error | null, result?: { current: number; ttl: number }) => void;

export interface RateLimitStore {
  incr(key: string, callback: Callback, timeWindow: number, max: number): void;
  read(key: string, callback: Callback, timeWindow: number): void;
  child(): RateLimitStore;
}

/** The class @fastify/rate-limit instantiates (it calls `new store(options)`), bound to our counters. */
export function sqliteRateLimitStore(limits: Limits, now: () => number): new () => RateLimitStore {
  return class SqliteRateLimitStore implements RateLimitStore {
    incr(key: string, callback: Callback, timeWindow: number): void {
      try {
        const { count, resetAt } = limits.hit('ip', key, timeWindow);
        callback(null, { current: count, ttl: Math.max(0, resetAt - now()) });
      } catch (error) {
        callback(error as Error);
      }
    }

    read(key: string, callback: Callback, timeWindow: number): void {
      try {
        const { count, resetAt } = limits.peek('ip', key, timeWindow);
        callback(null, { current: count, ttl: count ? Math.max(0, resetAt - now()) : 0 });
      } catch (error) {
        callback(error as Error);
      }
    }

    child(): RateLimitStore {
      return this;
    }
  };
}
