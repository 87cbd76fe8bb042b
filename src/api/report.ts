/**
 * Error reporting entry point. SPEC §4: web-socket and session errors, 4xx, 502 and status 0 are never
 * reported. Until error reporting is started (a DSN from /ws/app-config), reports go to the console.
 * @sentry/react is imported only by startErrorReporting, so without a DSN it never loads.
 */
import type { ErrorEvent, EventHint } from '@sentry/react';

export interface Report {
  operation?: string;
  code: string;
  status?: number;
  incidentId?: string;
}

/** Transport and session noise: reporting these would bury real faults (SPEC §4). */
const NEVER_REPORTED = /web-?socket|session|^ws_|eventsource/i;

export function shouldReport(report: Report): boolean {
  const status = report.status ?? 0;
  if (NEVER_REPORTED.test(report.operation ?? '') || NEVER_REPORTED.test(report.code)) return false;
  return !(status === 0 || status === 502 || (status >= 400 && status < 500));
}

let sink: (report: Report) => void = (report) => console.warn('[frontdoor] reported', report);

export function setReportSink(next: (report: Report) => void): void {
  sink = next;
}

export function reportFailure(report: Report): void {
  if (shouldReport(report)) sink(report);
}

/** SPEC §9: error-tracking trace sample rate. */
export const TRACES_SAMPLE_RATE = 0.01;

/** Browser noise that says nothing about our code (the ignored-noise list, SPEC §9). */
export const IGNORED_ERRORS: (string | RegExp)[] = [
  'ResizeObserver loop limit exceeded',
  'ResizeObserver loop completed with undelivered notifications',
  'Non-Error promise rejection captured',
  /^(TypeError: )?(Failed to fetch|NetworkError when attempting to fetch resource\.?|Load failed|Network request failed)$/,
  /AbortError|The (user|operation) aborted/,
  /web-?socket/i,
  /session (expired|ended)|UNAUTHENTICATED/i,
  /Loading chunk [\w-]+ failed/, // reported to the visitor already; a deploy or a flaky network, not a bug
  /^Script error\.?$/,
  /extension:\/\//,
];

const SECRET_KEY = /pass(word)?|code|token|secret|jwt|otp|state|cookie|authorization|credential|key|session|recaptcha/i;
const SECRET_PATH = /(\/(?:resetPassword|activate\/user|activate\/division|register|account\/register)\/)[^/?#\s]+/g;
const EMAIL = /[^\s@"'<>]+@[^\s@"'<>]+\.[a-z]{2,}/gi;
export const SCRUBBED = '[scrubbed]';

/** A string with URL query values, secret path segments and email addresses removed. */
export function scrubText(text: string): string {
  return text
    .replace(SECRET_PATH, `$1${SCRUBBED}`)
    .replace(/([?&#][^=&#\s]+=)[^&#\s]*/g, `$1${SCRUBBED}`)
    .replace(EMAIL, SCRUBBED);
}

/** Deep copy without credentials or codes: secret-looking keys are dropped, strings scrubbed. */
export function scrub<T>(value: T, depth = 0): T {
  if (depth > 8) return SCRUBBED as T;
  if (typeof value === 'string') return scrubText(value) as T;
  if (Array.isArray(value)) return value.map((v) => scrub(v, depth + 1)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) out[k] = SECRET_KEY.test(k) ? SCRUBBED : scrub(v, depth + 1);
    return out as T;
  }
  return value;
}

/** Sentry beforeSend: no request bodies, cookies, headers, user data; everything else scrubbed. */
export function scrubEvent(event: ErrorEvent, _hint?: EventHint): ErrorEvent | null {
  const copy = scrub({ ...event, user: undefined }) as ErrorEvent;
  if (event.request) copy.request = { url: event.request.url ? scrubText(event.request.url) : undefined };
  return copy;
}

export interface ErrorReportingConfig {
  dsn: string;
  environment?: string;
  release?: string;
}

let started: Promise<boolean> | undefined;

/** Loads @sentry/react and sends reports to it; once per page. Resolves false when it cannot start. */
export function startErrorReporting(config: ErrorReportingConfig): Promise<boolean> {
  started ??= import('@sentry/react').then(
    (Sentry) => {
      Sentry.init({
        dsn: config.dsn,
        environment: config.environment,
        release: config.release,
        tracesSampleRate: TRACES_SAMPLE_RATE,
        ignoreErrors: IGNORED_ERRORS,
        integrations: [Sentry.browserTracingIntegration()],
        beforeSend: scrubEvent,
        beforeBreadcrumb: (breadcrumb) => scrub(breadcrumb),
      });
      setReportSink((report) => {
        Sentry.captureMessage(`${report.operation ?? 'call'} failed: ${report.code}`, {
          level: 'error',
          tags: { operation: report.operation, code: report.code, status: String(report.status ?? '') },
          extra: report.incidentId ? { incidentId: report.incidentId } : undefined,
        });
      });
      return true;
    },
    (error: unknown) => {
      console.error('[frontdoor] error reporting did not start', error);
      return false;
    },
  );
  return started;
}

/** An uncaught render or runtime error (the error boundary calls this). */
export function reportError(error: unknown): void {
  if (!started) return;
  void started.then(async (ok) => {
    if (!ok) return;
    const Sentry = await import('@sentry/react');
    Sentry.captureException(error);
  });
}
