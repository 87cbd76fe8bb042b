/**
 * Error reporting entry point. SPEC §4: web-socket and session errors, 4xx, 502 and status 0 are never
 * reported. Until error reporting is started (a DSN from /ws/app-config), reports go to the console.
 * @sentry/react (and its options, ./sentry-options.ts) are imported only by startErrorReporting, so
 * without a DSN they never load.
 */

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

export interface ErrorReportingConfig {
  dsn: string;
  environment?: string;
  release?: string;
}

let started: Promise<boolean> | undefined;

/**
 * Loads @sentry/react and sends reports to it; once per page. Resolves false when it cannot start.
 * Its settings and scrubbing (./sentry-options.ts) load with it, not with the page.
 */
export function startErrorReporting(config: ErrorReportingConfig): Promise<boolean> {
  started ??= Promise.all([import('@sentry/react'), import('./sentry-options')]).then(
    ([Sentry, { IGNORED_ERRORS, scrub, scrubEvent, TRACES_SAMPLE_RATE }]) => {
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
