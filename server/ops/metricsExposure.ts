/**
 * Where /metrics answers (issue 35 finding 6, issue 36): sign-in outcomes by result code, queue
 * depths and latency per route are for the operator, not the internet.
 * - METRICS_PORT: on a listener of its own (for the cluster network: no Host allow-list there, so a
 *   scrape by pod IP works), with METRICS_TOKEN's bearer check too when that is set; the main port
 *   answers 404;
 * - METRICS_TOKEN alone: on the main port, for `Authorization: Bearer <token>` only (401 otherwise);
 * - neither, in demo mode: open on the main port (said at start);
 * - neither, outside demo mode: not served (404), and the start-up line says how to turn it on.
 * The route and the METRICS_PORT listener: ops/metricsServer.ts.
 */

export interface MetricsExposure {
  mode: 'port' | 'token' | 'open' | 'off';
  /** The start-up line's words. */
  description: string;
  port?: number;
}

export function metricsExposure(options: { token?: string | undefined; port?: number | undefined; devTools: boolean }): MetricsExposure {
  const guarded = options.token ? ' (bearer METRICS_TOKEN)' : '';
  if (options.port !== undefined)
    return {
      mode: 'port',
      port: options.port,
      description: `served on METRICS_PORT ${options.port} only${guarded}, with /healthz and /readyz; not on the main port`,
    };
  if (options.token) return { mode: 'token', description: 'served on the main port for the METRICS_TOKEN bearer token only' };
  if (options.devTools) return { mode: 'open', description: 'open on the main port (demo mode); outside it set METRICS_TOKEN or METRICS_PORT' };
  return {
    mode: 'off',
    description:
      'not served (404): set METRICS_TOKEN (a bearer token on this port) or METRICS_PORT (a listener of its own, for the cluster network) to scrape it',
  };
}
