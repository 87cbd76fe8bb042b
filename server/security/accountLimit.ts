/**
 * Per-account rate limit. @fastify/rate-limit counts per IP (keyed before the body is read); an attacker
 * with many addresses still aims at one account, so this counts per account as well: the normalised
 * email, else the login / setup token the call carries. It runs as a preHandler (after the body was
 * validated) on every route that has the sign-in rate limit (config.rateLimit), and answers 429
 * RATE_LIMITED with Retry-After. Fixed windows in memory, bounded in size; the escalation that comes
 * first (the bot check after 3 failures, services/attempts.ts) is unaffected.
 */
import crypto from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';

export interface AccountLimitOptions {
  /**
   * Calls per account and window (default 300: well above a person's use, even a demo-tenant test
   * suite signing in to one account again and again; guessing is stopped earlier by the bot check).
   */
  max?: number;
  /** Window length in ms (default 5 minutes). */
  windowMs?: number;
  /** Most accounts tracked at once; the oldest windows are dropped first (default 50,000). */
  maxKeys?: number;
}

export interface AccountLimiter {
  /** Counts one call; returns ms until the window resets when over the limit, else 0. */
  hit(key: string): number;
  reset(): void;
  size(): number;
}

export function createAccountLimiter(now: () => number, options: AccountLimitOptions = {}): AccountLimiter {
  const max = options.max ?? 300;
  const windowMs = options.windowMs ?? 5 * 60 * 1000;
  const maxKeys = options.maxKeys ?? 50_000;
  // Map keeps insertion order: the first entries are the oldest windows.
  const windows = new Map<string, { start: number; count: number }>();
  return {
    hit(key) {
      const t = now();
      let w = windows.get(key);
      if (!w || t - w.start >= windowMs) {
        windows.delete(key);
        w = { start: t, count: 0 };
        windows.set(key, w);
        while (windows.size > maxKeys) windows.delete(windows.keys().next().value as string);
      }
      w.count += 1;
      return w.count > max ? w.start + windowMs - t : 0;
    },
    reset: () => windows.clear(),
    size: () => windows.size,
  };
}

/** The account a sign-in call is about: email, else loginToken / userToken (hashed: keys are kept in memory). */
export function accountKey(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const b = body as Record<string, unknown>;
  if (typeof b.email === 'string' && b.email.trim() !== '') return 'email:' + b.email.trim().toLowerCase();
  for (const field of ['loginToken', 'userToken'] as const) {
    const v = b[field];
    if (typeof v === 'string' && v !== '') return `${field}:` + crypto.createHash('sha256').update(v).digest('base64url');
  }
  const nested = b.setupMfaRequest;
  if (nested && typeof nested === 'object') return accountKey(nested);
  return undefined;
}

export function registerAccountLimit(app: FastifyInstance, limiter: AccountLimiter): void {
  app.addHook('preHandler', async (req: FastifyRequest, reply) => {
    // Routes that carry the sign-in limit's config (even when the per-IP limit is off) are sign-in routes.
    const config = req.routeOptions.config as unknown as Record<string, unknown> | undefined;
    if (!config || !('rateLimit' in config)) return;
    const key = accountKey(req.body);
    if (!key) return;
    const waitMs = limiter.hit(key);
    if (waitMs <= 0) return;
    const seconds = Math.max(1, Math.ceil(waitMs / 1000));
    reply.header('Retry-After', String(seconds));
    return apiError(reply, 429, 'RATE_LIMITED', `Too many attempts for this account; retry in ${seconds} seconds`);
  });
}
