/**
 * What error reporting sends and ignores (SPEC §4, §8, §9), loaded with @sentry/react by
 * startErrorReporting (./report.ts), never with the page.
 */
import type { ErrorEvent, EventHint } from '@sentry/react';

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
const SECRET_PATH = /(\/(?:resetPassword|activate\/user|activate\/division|register|account\/register|passkey\/not-me)\/)[^/?#\s]+/g;
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
