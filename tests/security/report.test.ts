import { beforeEach, describe, expect, it, vi } from 'vitest';

const sentry = vi.hoisted(() => ({
  init: vi.fn(),
  captureMessage: vi.fn(),
  captureException: vi.fn(),
  browserTracingIntegration: vi.fn(() => ({ name: 'BrowserTracing' })),
}));
vi.mock('@sentry/react', () => sentry);

import type { ErrorEvent } from '@sentry/react';
import { reportError, reportFailure, shouldReport, startErrorReporting } from '../../src/api/report';
import { IGNORED_ERRORS, scrub, scrubEvent, scrubText, TRACES_SAMPLE_RATE } from '../../src/api/sentry-options';

/** Error reporting (SPEC §4, §8, §9): what is reported, what never is, and what a report may carry. */
beforeEach(() => {
  sentry.captureMessage.mockClear();
  sentry.captureException.mockClear();
});

describe('shouldReport', () => {
  it.each([
    [{ code: 'HTTP_500', status: 500 }, true],
    [{ code: 'INVALID_RESPONSE', status: 200 }, true],
    [{ code: 'UNKNOWN_RESULT', status: 200, operation: 'login' }, true],
    [{ code: 'HTTP_503', status: 503 }, true],
    [{ code: 'HTTP_502', status: 502 }, false],
    [{ code: 'NETWORK_ERROR', status: 0 }, false],
    [{ code: 'TIMEOUT', status: 0 }, false],
    [{ code: 'HTTP_400', status: 400 }, false],
    [{ code: 'HTTP_401', status: 401 }, false],
    [{ code: 'HTTP_429', status: 429 }, false],
    [{ code: 'HTTP_500', status: 500, operation: 'session' }, false],
    [{ code: 'WEBSOCKET_CLOSED', status: 500 }, false],
    [{ code: 'HTTP_500', status: 500, operation: 'duoChannel-eventsource' }, false],
  ])('%j -> %s', (report, expected) => {
    expect(shouldReport(report)).toBe(expected);
  });
});

describe('scrubbing', () => {
  it('drops secret-looking keys and scrubs URLs and emails in strings', () => {
    expect(
      scrub({ password: 'p', loginToken: 't', verificationCode: 'c', nested: { recaptchaToken: 'r', ok: 'fine' }, list: ['/resetPassword/ABC?state=xyz'] }),
    ).toEqual({
      password: '[scrubbed]',
      loginToken: '[scrubbed]',
      verificationCode: '[scrubbed]',
      nested: { recaptchaToken: '[scrubbed]', ok: 'fine' },
      list: ['/resetPassword/[scrubbed]?state=[scrubbed]'],
    });
    expect(scrubText('https://x.test/passkey/not-me/eyJ1aWQiOjF9.c2ln')).toBe('https://x.test/passkey/not-me/[scrubbed]');
    expect(scrubText('mail bob@example.com at https://x.test/mfa?state=eyJhIjoxfQ&x=1#code=1')).toBe(
      'mail [scrubbed] at https://x.test/mfa?state=[scrubbed]&x=[scrubbed]#code=[scrubbed]',
    );
  });

  it('beforeSend keeps no cookies, headers, bodies or user', () => {
    const event = {
      message: 'failed for tech@demo.test',
      user: { email: 'tech@demo.test', ip_address: '1.2.3.4' },
      request: { url: 'https://x.test/activate/user/INVITE?x=1', cookies: { fd_session: 's' }, headers: { Cookie: 'fd_session=s' }, data: '{"password":"p"}' },
      extra: { body: { password: 'p', code: '123456' } },
    } as unknown as ErrorEvent;
    const out = scrubEvent(event) as ErrorEvent;
    const text = JSON.stringify(out);
    for (const secret of ['tech@demo.test', 'INVITE', 'fd_session', '1.2.3.4', '123456', '"p"']) expect(text).not.toContain(secret);
    expect(out.request).toEqual({ url: 'https://x.test/activate/user/[scrubbed]?x=[scrubbed]' });
  });
});

describe('Sentry', () => {
  it('reports go to the console sink until started; nothing is imported then', () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    reportFailure({ code: 'HTTP_500', status: 500, operation: 'login' });
    expect(warn).toHaveBeenCalledTimes(1);
    reportError(new Error('x'));
    expect(sentry.init).not.toHaveBeenCalled();
    warn.mockRestore();
  });

  it('starts once with the DSN, sample rate 0.01, the ignore list and the scrubber; reports go to Sentry', async () => {
    await expect(startErrorReporting({ dsn: 'https://k@o1.ingest.example.io/1', environment: 'production' })).resolves.toBe(true);
    await startErrorReporting({ dsn: 'https://other@o2.example.io/2' });
    expect(sentry.init).toHaveBeenCalledTimes(1);
    const options = sentry.init.mock.calls[0]?.[0] as Record<string, unknown>;
    expect(options).toMatchObject({
      dsn: 'https://k@o1.ingest.example.io/1',
      environment: 'production',
      tracesSampleRate: 0.01,
      ignoreErrors: IGNORED_ERRORS,
      beforeSend: scrubEvent,
    });
    expect(TRACES_SAMPLE_RATE).toBe(0.01);

    reportFailure({ code: 'HTTP_500', status: 500, operation: 'login', incidentId: 'INC-1' });
    reportFailure({ code: 'HTTP_502', status: 502, operation: 'login' });
    reportFailure({ code: 'HTTP_403', status: 403, operation: 'login' });
    expect(sentry.captureMessage).toHaveBeenCalledTimes(1);
    expect(sentry.captureMessage.mock.calls[0]?.[0]).toBe('login failed: HTTP_500');

    reportError(new Error('render'));
    await vi.waitFor(() => expect(sentry.captureException).toHaveBeenCalledTimes(1));
  });

  it('the ignore list matches the usual noise and not real errors', () => {
    const ignored = (message: string) => IGNORED_ERRORS.some((p) => (typeof p === 'string' ? message.includes(p) : p.test(message)));
    for (const noise of [
      'ResizeObserver loop limit exceeded',
      'Failed to fetch',
      'TypeError: Load failed',
      'WebSocket connection closed',
      'Loading chunk login failed. (missing: /a.js)',
      'Script error.',
      'AbortError: The user aborted a request.',
    ]) {
      expect(ignored(noise), noise).toBe(true);
    }
    for (const real of ["Cannot read properties of undefined (reading 'x')", 'Unknown screen "x"']) expect(ignored(real), real).toBe(false);
  });
});
