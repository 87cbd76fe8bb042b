/**
 * Prometheus metrics (prom-client), one registry per app: request counts and latency by route,
 * refusals by a limit (every 429), sign-in outcomes by result code (services count them through
 * `ctx.metrics.signIns`), and the outbox depth read from the database at scrape time.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Database } from '../db/data.js';
import { deliveriesByStatus } from '../db/deliveries.js';
import { countOutbox } from '../db/outbox.js';
import type { Channel } from '../delivery/types.js';

export interface Metrics {
  registry: Registry;
  /** Sign-in attempts by their result code (SUCCESS, INVALID_CREDENTIALS, MFA …). */
  signIns: Counter<'result'>;
  /** Requests refused by a limit (HTTP 429), by route. */
  limitRefusals: Counter<'route'>;
}

export interface MetricsOptions {
  /** Process metrics (CPU, memory, event-loop delay, GC): main.ts turns them on; tests build many apps and leave them off. */
  processMetrics?: boolean;
  /** The channels that have a transport (the delivery policy): the others are held (frontdoor_delivery_held). */
  delivering?: ReadonlySet<Channel>;
}

export function createMetrics(data: Database, options: MetricsOptions = {}): Metrics {
  const registry = new Registry();
  if (options.processMetrics) collectDefaultMetrics({ register: registry });
  const signIns = new Counter({ name: 'frontdoor_sign_in_total', help: 'Sign-in attempts by result code.', labelNames: ['result'], registers: [registry] });
  const limitRefusals = new Counter({
    name: 'frontdoor_limit_refusals_total',
    help: 'Requests refused by a limit (HTTP 429), by route.',
    labelNames: ['route'],
    registers: [registry],
  });
  // Read at scrape time; a database that does not answer gives NaN and database_up 0, not a failed scrape.
  new Gauge({
    name: 'frontdoor_outbox_messages',
    help: 'Messages in the outbox table (read from the database at scrape time).',
    registers: [registry],
    async collect() {
      try {
        this.set(await countOutbox(data));
      } catch {
        this.set(Number.NaN);
      }
    },
  });
  new Gauge({
    name: 'frontdoor_delivery_messages',
    help: 'Messages in the delivery queue by status: pending (to send), held (no provider), sent, failed (read at scrape time).',
    labelNames: ['status'],
    registers: [registry],
    async collect() {
      try {
        const rows = await deliveriesByStatus(data);
        for (const status of ['pending', 'held', 'sent', 'failed']) this.set({ status }, Number(rows.find((r) => r.status === status)?.n ?? 0));
      } catch {
        for (const status of ['pending', 'held', 'sent', 'failed']) this.set({ status }, Number.NaN);
      }
    },
  });
  // 1 for a channel the deployment holds on purpose (DELIVERY=hold, or demo mode): nothing of it is ever sent.
  const held = new Gauge({
    name: 'frontdoor_delivery_held',
    help: 'Whether the deployment holds a channel (1: no transport, messages are kept, never sent; DELIVERY=hold or demo mode) or sends it (0).',
    labelNames: ['channel'],
    registers: [registry],
  });
  for (const channel of ['email', 'sms'] as const) held.set({ channel }, options.delivering?.has(channel) ? 0 : 1);
  new Gauge({
    name: 'frontdoor_database_up',
    help: 'Whether the database answered at scrape time (1) or not (0).',
    registers: [registry],
    async collect() {
      this.set(
        await data.ping().then(
          () => 1,
          () => 0,
        ),
      );
    },
  });
  return { registry, signIns, limitRefusals };
}

/** The route pattern (`/ws/account/login`), never the raw URL: unknown paths share one label. */
function routeLabel(req: FastifyRequest): string {
  return req.routeOptions.url ?? 'unmatched';
}

/** Counts and times every request by method, route and status; counts 429s as limit refusals. Register before the routes. */
export function registerRequestMetrics(app: FastifyInstance, metrics: Metrics): void {
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status code.',
    labelNames: ['method', 'route', 'status_code'],
    registers: [metrics.registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency in seconds by method, route and status code.',
    labelNames: ['method', 'route', 'status_code'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [metrics.registry],
  });
  app.addHook('onResponse', async (req, reply) => {
    const labels = { method: req.method, route: routeLabel(req), status_code: String(reply.statusCode) };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    if (reply.statusCode === 429) metrics.limitRefusals.inc({ route: labels.route });
  });
}
