/**
 * Whether the API calls carry a W3C traceparent: the app config's `tracing` (src/api/app-config.ts
 * sets it). Apart from src/api/trace-context.ts so that the page's first load holds only this switch;
 * the ids are made in the operation client's chunk.
 */
let on = false;

export function setTraceContext(enabled: boolean): void {
  on = enabled;
}

export const traceContextOn = (): boolean => on;
