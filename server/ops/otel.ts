/**
 * OpenTelemetry's tracer behind ops/tracing.ts, the one module of the server that imports it, and only
 * when OTEL_EXPORTER_OTLP_ENDPOINT is set (tracing.ts's dynamic import). Spans go out in batches over
 * OTLP/HTTP (JSON) to its /v1/traces; the exporter reads the other standard OTEL_EXPORTER_OTLP_*
 * variables (headers, timeout, compression) itself, the resource OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES.
 *
 * Nothing is registered globally: the provider, the W3C propagator and the current span (an
 * AsyncLocalStorage of contexts) belong to this tracer, so two apps in one process do not share them.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { IncomingHttpHeaders } from 'node:http';
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, defaultTextMapGetter, trace, type Attributes, type Context, type Span } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, detectResources, envDetector, resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';

/** The service's name in every span's resource unless OTEL_SERVICE_NAME says another. */
export const SERVICE_NAME = 'frontdoor';

/** How long closing waits for the last export: a collector that does not answer must not hold up a shutdown (SHUTDOWN_TIMEOUT_MS). */
const SHUTDOWN_EXPORT_MS = 2000;

/** The error's kind only: a message may quote a value (a duplicate key's detail names the email). */
function failed(span: Span, error: unknown): void {
  span.setStatus({ code: SpanStatusCode.ERROR, message: error instanceof Error ? error.name : 'Error' });
}

/** A tracer whose spans go to tracesUrl (the collector's /v1/traces). */
export function createOtelTracing(tracesUrl: string) {
  const provider = new TracerProvider({
    resource: defaultResource()
      .merge(resourceFromAttributes({ 'service.name': SERVICE_NAME }))
      .merge(detectResources({ detectors: [envDetector] })),
    spanProcessors: [new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: tracesUrl }) })],
  });
  const tracer = provider.getTracer(SERVICE_NAME);
  const propagator = new W3CTraceContextPropagator();
  const current = new AsyncLocalStorage<Context>();

  const within = async <T>(name: string, kind: SpanKind, attributes: Attributes, parent: Context, fn: () => Promise<T>): Promise<T> => {
    const span = tracer.startSpan(name, { kind, attributes }, parent);
    try {
      return await current.run(trace.setSpan(parent, span), fn);
    } catch (error) {
      failed(span, error);
      throw error;
    } finally {
      span.end();
    }
  };

  return {
    enabled: true as const,
    requestSpan(method: string, headers: IncomingHttpHeaders) {
      // A malformed traceparent extracts nothing: the request starts a trace of its own.
      const parent = propagator.extract(ROOT_CONTEXT, headers, defaultTextMapGetter);
      const span = tracer.startSpan(method, { kind: SpanKind.SERVER, attributes: { 'http.request.method': method } }, parent);
      const context = trace.setSpan(parent, span);
      let open = true;
      return {
        run: (next: () => void) => current.run(context, next),
        end({ route, statusCode }: { route: string | undefined; statusCode: number }) {
          if (!open) return;
          open = false;
          if (route) span.updateName(`${method} ${route}`).setAttribute('http.route', route);
          span.setAttribute('http.response.status_code', statusCode);
          if (statusCode >= 500) span.setStatus({ code: SpanStatusCode.ERROR });
          span.end();
        },
      };
    },
    /** A client span (the database's statements and transactions) under the current one. */
    childSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
      const parent = current.getStore();
      // Outside a request (housekeeping, the delivery worker's queue) statements make no traces of their own.
      return parent === undefined ? fn() : within(name, SpanKind.CLIENT, attributes, parent, fn);
    },
    rootSpan<T>(name: string, attributes: Attributes, fn: () => Promise<T>): Promise<T> {
      return within(name, SpanKind.INTERNAL, attributes, ROOT_CONTEXT, fn);
    },
    flush: () => provider.forceFlush(),
    shutdown: () => Promise.race([provider.shutdown(), new Promise<void>((resolve) => setTimeout(resolve, SHUTDOWN_EXPORT_MS).unref())]),
  };
}
