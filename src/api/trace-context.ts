/**
 * W3C trace context on the API calls (docs/deploy.md, "Traces"): when the server exports traces (its
 * app config says `tracing`), each call carries `traceparent: 00-<trace id>-<span id>-01`, and the
 * calls one action makes (a submit, its retries) share the trace id, so one sign-in is one trace from
 * the click to the database. Off (the default): no header, no id. A few lines instead of a browser
 * tracing library: the server records the spans; the browser only names the click's.
 */
let on = false;

/** Follows the app config's `tracing` (src/api/app-config.ts). */
export function setTraceContext(enabled: boolean): void {
  on = enabled;
}

const randomHex = (bytes: number): string => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The trace of one action: 32 hex digits, or undefined while traces are off. */
export function newTraceId(): string | undefined {
  return on ? randomHex(16) : undefined;
}

/** The header of one call (a span of its own) in the action's trace, or in a new one; undefined while traces are off. */
export function traceparent(traceId: string | undefined = newTraceId()): string | undefined {
  return on && traceId !== undefined ? `00-${traceId}-${randomHex(8)}-01` : undefined;
}
