/**
 * W3C trace context on the API calls (docs/deploy.md, "Traces"): when the server exports traces (its
 * app config says `tracing`: trace-switch.ts), each call carries `traceparent: 00-<trace id>-<span id>-01`,
 * and the calls one action makes (a submit, its retries) share the trace id, so one sign-in is one trace
 * from the click to the database. Off (the default): no header, no id. A few lines instead of a browser
 * tracing library: the server records the spans; the browser only names the click's.
 */
import { traceContextOn } from './trace-switch';

const randomHex = (bytes: number): string => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/** The trace id of each action (the object its calls share; operation-caller.ts makes one per call it is asked for). */
const traces = new WeakMap<object, string>();

/** The header of one call (a span of its own) in its action's trace, or in a new trace without one; undefined while traces are off. */
export function traceparent(action?: object): string | undefined {
  if (!traceContextOn()) return undefined;
  let traceId = action && traces.get(action);
  if (!traceId) {
    traceId = randomHex(16);
    if (action) traces.set(action, traceId);
  }
  return `00-${traceId}-${randomHex(8)}-01`;
}
