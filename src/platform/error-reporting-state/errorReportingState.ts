/**
 * Error-reporting state (SPEC §7): one GET for technicians (errorReportingState, /ws/sentry/state)
 * and one for end users (errorReportingStateEus, /ws/eus/sentry/state). On failure error reporting
 * stays off and 'Error fetching Sentry state' is logged (SPEC §8).
 */
import { callOperation } from '../../api/client';

export const ERROR_FETCHING_SENTRY_STATE = 'Error fetching Sentry state';

export function errorReportingStateOperation(userType: string | undefined): 'errorReportingState' | 'errorReportingStateEus' {
  return userType === 'END_USER' ? 'errorReportingStateEus' : 'errorReportingState';
}

export type ErrorReportingLogger = (message: string, detail: { operation: string; code: string; status: number }) => void;

const defaultLogger: ErrorReportingLogger = (message, detail) => console.error(message, detail);

/** true/false from the server; false (and the log line) when the call fails. */
export async function fetchErrorReportingState(userType: string | undefined, log: ErrorReportingLogger = defaultLogger): Promise<boolean> {
  const operation = errorReportingStateOperation(userType);
  const result = await callOperation(operation);
  const enabled = (result.data as { enabled?: unknown } | undefined)?.enabled;
  if (!result.ok || typeof enabled !== 'boolean') {
    log(ERROR_FETCHING_SENTRY_STATE, { operation, code: result.ok ? 'INVALID_RESPONSE' : result.code, status: result.status });
    return false;
  }
  return enabled;
}
