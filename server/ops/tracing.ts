/**
 * Traces (docs/deploy.md, "Traces"): with OTEL_EXPORTER_OTLP_ENDPOINT set, every request is a server
 * span whose parent is the caller's W3C `traceparent` (the browser's click, src/api/trace-context.ts),
 * and every database statement and transaction a child of it (db/traced.ts), exported over OTLP/HTTP
 * (ops/otel.ts, the one module that imports OpenTelemetry). Without the variable that module is never
 * imported: the server runs on NO_TRACING, and the data layer is not wrapped.
 *
 * What a span carries is chosen here and in db/traced.ts: the method, the route's pattern (never the
 * path: it may hold a token), the status code, the statement's text; never a header, a body, a
 * query string, an address or a bound value.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { StatementTracer } from '../db/traced.js';

export type SpanAttributes = Readonly<Record<string, string | number>>;

/** The span of one request, open from the first hook to the answer. */
export interface RequestSpan {
  /** Runs the rest of the request inside this span (its statements become its children). */
  run(next: () => void): void;
  end(answer: { route: string | undefined; statusCode: number }): void;
}

export interface Tracing extends StatementTracer {
  readonly enabled: boolean;
  /** A server span for a request; its parent is the `traceparent` header when that is well formed (else a new trace). */
  requestSpan(method: string, headers: IncomingHttpHeaders): RequestSpan;
  /** A span of work no request started (a delivery): a trace of its own. */
  rootSpan<T>(name: string, attributes: SpanAttributes, fn: () => Promise<T>): Promise<T>;
  /** Exports the spans ended so far. */
  flush(): Promise<void>;
  /** Exports what is left and stops (the app's last onClose); a collector that does not answer holds it up a few seconds at most. */
  shutdown(): Promise<void>;
}

const NO_SPAN: RequestSpan = { run: (next) => next(), end: () => undefined };

/** Traces off: nothing recorded, nothing loaded. */
export const NO_TRACING: Tracing = {
  enabled: false,
  requestSpan: () => NO_SPAN,
  childSpan: (_name, _attributes, fn) => fn(),
  rootSpan: (_name, _attributes, fn) => fn(),
  flush: async () => undefined,
  shutdown: async () => undefined,
};

/**
 * The tracer: OpenTelemetry's, imported now, when there is a collector to send to (OTEL_EXPORTER_OTLP_ENDPOINT;
 * spans go to its /v1/traces, the exporter reads the other standard OTEL_EXPORTER_OTLP_* variables
 * itself); else NO_TRACING. `load` is the import (a test seam: proving it is never called without one).
 */
export async function startTracing(
  endpoint: string | undefined,
  load: () => Promise<{ createOtelTracing: (tracesUrl: string) => Tracing }> = () => import('./otel.js'),
): Promise<Tracing> {
  if (endpoint === undefined || endpoint === '') return NO_TRACING;
  return (await load()).createOtelTracing(`${endpoint.replace(/\/+$/, '')}/v1/traces`);
}

/** Probes and scrapes come every few seconds, from no click: no trace for them. */
const UNTRACED = new Set(['/healthz', '/readyz', '/metrics']);

/** A span per request, from the first hook (register before every other) to the answer. */
export function registerRequestTracing(app: FastifyInstance, tracing: Tracing): void {
  if (!tracing.enabled) return;
  const spans = new WeakMap<FastifyRequest, RequestSpan>();
  // A callback hook: the rest of the request (every later hook, the handler) runs inside the span's context.
  app.addHook('onRequest', (req, _reply, done) => {
    if (UNTRACED.has(req.url.split('?')[0] ?? '')) return done();
    const span = tracing.requestSpan(req.method, req.headers);
    spans.set(req, span);
    span.run(() => done());
  });
  const end = (req: FastifyRequest, statusCode: number) => {
    spans.get(req)?.end({ route: req.routeOptions.url, statusCode });
    spans.delete(req);
  };
  app.addHook('onResponse', async (req, reply) => end(req, reply.statusCode));
  // The caller went away before the answer: the span ends anyway (499, as proxies write it).
  app.addHook('onRequestAbort', async (req) => end(req, 499));
}
