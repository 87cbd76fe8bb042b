/**
 * Error reporting entry point. SPEC §4: web-socket and session errors, 4xx, 502 and status 0
 * are never reported. Until an error-tracking service is configured, reports go to the console.
 */
export interface Report {
  operation?: string;
  code: string;
  status?: number;
  incidentId?: string;
}

export function shouldReport(report: Report): boolean {
  const status = report.status ?? 0;
  return !(status === 0 || status === 502 || (status >= 400 && status < 500));
}

let sink: (report: Report) => void = (report) => console.warn('[frontdoor] reported', report);

export function setReportSink(next: (report: Report) => void): void {
  sink = next;
}

export function reportFailure(report: Report): void {
  if (shouldReport(report)) sink(report);
}
