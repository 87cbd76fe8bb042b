/**
 * The per-address limit of the app's pages (server/spa/serve.ts: a GET or HEAD answered with a page). Pages
 * are cheap once built (server/spa/cache.ts), so the limit is generous, there to stop one address
 * from keeping a core busy; its counters are @fastify/rate-limit's in the database
 * (security/rateLimitStore.ts), so every instance on the database counts into one bucket per address.
 * Apart from the sign-in endpoints' bucket (routes/operation.ts authRateLimit): a visitor who loads
 * many pages keeps their sign-in budget, and the reverse.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export interface PageRateLimit {
  max: number;
  timeWindow: number;
}

/** A check for page requests: true when the address is over its limit and the 429 has been sent. */
export type PageLimitCheck = (req: FastifyRequest, reply: FastifyReply) => Promise<boolean>;

export function pageRateLimit(app: FastifyInstance, limit: PageRateLimit | false): PageLimitCheck {
  if (limit === false) return async () => false;
  const check = app.createRateLimit({ max: limit.max, timeWindow: limit.timeWindow, keyGenerator: (req) => `page:${req.ip}` });
  return async (req, reply) => {
    const result = await check(req);
    if (result.isAllowed || !result.isExceeded) return false;
    // A page request asks for HTML; the answer says in one line what happened and when to come back.
    await reply
      .code(429)
      .header('Retry-After', String(result.ttlInSeconds))
      .header('Cache-Control', 'no-store')
      .type('text/plain; charset=utf-8')
      .send(`Too many page requests from your address. Try again in ${result.ttlInSeconds} seconds.\n`);
    return true;
  };
}
