import { afterEach, describe, expect, it, vi } from 'vitest';
import { buildRequest, callOperation, isOperation, UnknownOperationError } from '../../src/api/client';
import { reportFailure, setReportSink, shouldReport } from '../../src/api/report';

type FetchArgs = [input: string, init: RequestInit];

function stubFetch(impl: (url: string, init: RequestInit) => Promise<Response> | Response) {
  const mock = vi.fn<(...args: FetchArgs) => Promise<Response>>(async (url, init) => impl(url, init));
  vi.stubGlobal('fetch', mock);
  return mock;
}

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('buildRequest', () => {
  it('fills path params URL-encoded and sends the rest as the GET query', () => {
    expect(buildRequest('registerInvite', { trialLinkCode: 'a b/c?d', extra: 'x&y', none: undefined, nil: null })).toEqual({
      url: '/account/register/a%20b%2Fc%3Fd?extra=x%26y',
      method: 'GET',
    });
  });

  it('a missing path param becomes empty, never "undefined"', () => {
    expect(buildRequest('registerInvite', {}).url).toBe('/account/register/');
  });

  it('GET without input has no query string and no body', () => {
    expect(buildRequest('appConfig', {})).toEqual({ url: '/ws/app-config', method: 'GET' });
    expect(buildRequest('logout', { sessions: 'all' })).toEqual({ url: '/ws/account/logout?sessions=all', method: 'GET' });
  });

  it('POST sends the input as a JSON body', () => {
    const request = buildRequest('login', { email: 'jo@example.com', password: 'pw', staySignedIn: false });
    expect(request.url).toBe('/ws/account/login');
    expect(request.method).toBe('POST');
    expect(JSON.parse(request.body ?? '')).toEqual({ email: 'jo@example.com', password: 'pw', staySignedIn: false });
  });

  it('does not mutate the input', () => {
    const input = { trialLinkCode: 'abc' };
    buildRequest('registerInvite', input);
    expect(input).toEqual({ trialLinkCode: 'abc' });
  });
});

describe('callOperation', () => {
  it('a busy server (503 with a short Retry-After) is asked once more after the wait; a long one, or a 500, is not', async () => {
    const busy = () => new Response(JSON.stringify({ error: 'BUSY' }), { status: 503, headers: { 'Content-Type': 'application/json', 'Retry-After': '0' } });
    let calls = stubFetch(() => (calls.mock.calls.length === 1 ? busy() : json({ resultCode: 'AUTHENTICATION_FAILURE' })));
    expect((await callOperation('login', { email: 'jo@example.com', password: 'pw' })).code).toBe('AUTHENTICATION_FAILURE');
    expect(calls).toHaveBeenCalledTimes(2);
    // Busy twice: the second answer is the visitor's (no loop).
    calls = stubFetch(busy);
    expect((await callOperation('login', { email: 'jo@example.com', password: 'pw' })).code).toBe('HTTP_503');
    expect(calls).toHaveBeenCalledTimes(2);
    calls = stubFetch(() => new Response('{}', { status: 503, headers: { 'Retry-After': '60' } }));
    expect((await callOperation('login', { email: 'jo@example.com', password: 'pw' })).code).toBe('HTTP_503');
    expect(calls).toHaveBeenCalledTimes(1);
    // A 503 without Retry-After (a proxy's, say) is not the server's busy answer.
    calls = stubFetch(() => json({ error: 'UNAVAILABLE' }, 503));
    expect((await callOperation('login', { email: 'jo@example.com', password: 'pw' })).code).toBe('HTTP_503');
    expect(calls).toHaveBeenCalledTimes(1);
    calls = stubFetch(() => json({ error: 'INTERNAL' }, 500));
    expect((await callOperation('login', { email: 'jo@example.com', password: 'pw' })).code).toBe('HTTP_500');
    expect(calls).toHaveBeenCalledTimes(1);
  });

  it('200 with a resultCode answers that code and sends JSON with same-origin credentials', async () => {
    const fetchMock = stubFetch(() => json({ resultCode: 'AUTHENTICATION_FAILURE' }));
    const result = await callOperation('login', { email: 'jo@example.com', password: 'pw' });
    expect(result).toEqual({ code: 'AUTHENTICATION_FAILURE', status: 200, ok: true, data: { resultCode: 'AUTHENTICATION_FAILURE' } });
    expect(fetchMock).toHaveBeenCalledTimes(1);
    const [url, init] = fetchMock.mock.calls[0] as FetchArgs;
    expect(url).toBe('/ws/account/login');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.headers).toMatchObject({ 'Content-Type': 'application/json', Accept: 'application/json' });
    expect(JSON.parse(String(init.body))).toEqual({ email: 'jo@example.com', password: 'pw' });
  });

  it('200 without a resultCode is SUCCESS; an empty body counts as {}', async () => {
    stubFetch(() => json({ environment: 'production', selfRegistrationEnabled: false, botCheck: { provider: 'altcha' } }));
    expect(await callOperation('appConfig')).toMatchObject({ code: 'SUCCESS', status: 200, ok: true });
    stubFetch(() => new Response('', { status: 200 }));
    expect(await callOperation('requestActivationEmail', {})).toMatchObject({ code: 'SUCCESS', ok: true, data: {} });
  });

  it('a realtime channel (text/event-stream) answers with its first data event, validated like any answer', async () => {
    const stream = (...chunks: string[]) =>
      new Response(new ReadableStream({ start: (c) => (chunks.forEach((chunk) => c.enqueue(new TextEncoder().encode(chunk))), c.close()) }), {
        status: 200,
        headers: { 'Content-Type': 'text/event-stream' },
      });
    // Retry lines and keep-alive comments come first; an event may arrive in pieces.
    stubFetch(() => stream('retry: 2000\n\n: keep-alive\n\n', 'data: {"mfaCode":', '"123456"}\n\n', 'data: {"mfaCode":"999999"}\n\n'));
    expect(await callOperation('duoChannel', { channelId: 'c1' })).toMatchObject({ code: 'SUCCESS', ok: true, data: { mfaCode: '123456' } });
    // Control: a stream that ends before any event is a transport failure (the caller opens it again), a message off the contract is refused.
    stubFetch(() => stream(': keep-alive\n\n'));
    expect(await callOperation('duoChannel', { channelId: 'c1' })).toMatchObject({ code: 'NETWORK_ERROR', ok: false });
    stubFetch(() => stream('data: {"mfaCode":"12"}\n\n'));
    expect(await callOperation('duoChannel', { channelId: 'c1' })).toMatchObject({ code: 'INVALID_RESPONSE', ok: false });
  });

  it('resultFrom reads the code elsewhere', async () => {
    stubFetch(() => json({ authState: 'SSO', idpName: 'Demo IdP' }));
    const result = await callOperation('authenticationState', { email: 'a@sso.example.com' }, { resultFrom: '/authState' });
    expect(result).toMatchObject({ code: 'SSO', ok: true, data: { authState: 'SSO', idpName: 'Demo IdP' } });
  });

  it('an empty resultCode is SUCCESS', async () => {
    stubFetch(() => json({ resultCode: '' }));
    expect((await callOperation('login', { email: 'a@b.co', password: 'x' })).code).toBe('SUCCESS');
  });

  it('500 answers HTTP_500 with ok false (JSON or not)', async () => {
    stubFetch(() => json({ error: 'INTERNAL', incidentId: 'inc-1' }, 500));
    expect(await callOperation('login', { email: 'a@b.co', password: 'x' })).toEqual({
      code: 'HTTP_500',
      status: 500,
      ok: false,
      data: { error: 'INTERNAL', incidentId: 'inc-1' },
    });
    stubFetch(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    expect(await callOperation('login', { email: 'a@b.co', password: 'x' })).toEqual({ code: 'HTTP_502', status: 502, ok: false, data: undefined });
  });

  it('4xx answers HTTP_<status>', async () => {
    stubFetch(() => json({ error: 'EMPTY_FIELD', message: 'Email field can not be empty' }, 400));
    expect(await callOperation('login', { email: '', password: 'x' })).toMatchObject({ code: 'HTTP_400', status: 400, ok: false });
  });

  it('non-JSON 200 is INVALID_RESPONSE', async () => {
    stubFetch(() => new Response('<html>captive portal</html>', { status: 200 }));
    expect(await callOperation('login', { email: 'a@b.co', password: 'x' })).toEqual({ code: 'INVALID_RESPONSE', status: 200, ok: false, data: undefined });
  });

  it('a 200 body that violates the response schema is INVALID_RESPONSE', async () => {
    stubFetch(() => json({ resultCode: 42 }));
    expect(await callOperation('login', { email: 'a@b.co', password: 'x' })).toEqual({ code: 'INVALID_RESPONSE', status: 200, ok: false, data: undefined });
    stubFetch(() => json({ idpName: 'no authState' }));
    expect((await callOperation('authenticationState', { email: 'a@b.co' }, { resultFrom: '/authState' })).code).toBe('INVALID_RESPONSE');
    stubFetch(() => json([1, 2, 3]));
    expect((await callOperation('login', { email: 'a@b.co', password: 'x' })).code).toBe('INVALID_RESPONSE');
  });

  it('a fetch rejection is NETWORK_ERROR', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    expect(await callOperation('login', { email: 'a@b.co', password: 'x' })).toEqual({ code: 'NETWORK_ERROR', status: 0, ok: false, data: undefined });
  });

  it('a call slower than timeoutMs is TIMEOUT (fetch honours the abort signal)', async () => {
    const fetchMock = stubFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(init.signal?.reason ?? new DOMException('aborted', 'AbortError')));
        }),
    );
    const started = Date.now();
    const result = await callOperation('login', { email: 'a@b.co', password: 'x' }, { timeoutMs: 20 });
    expect(result).toEqual({ code: 'TIMEOUT', status: 0, ok: false, data: undefined });
    expect(Date.now() - started).toBeLessThan(2000);
    expect((fetchMock.mock.calls[0] as FetchArgs)[1].signal?.aborted).toBe(true);
  });

  it("the caller's abort is NETWORK_ERROR, not TIMEOUT", async () => {
    stubFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    const controller = new AbortController();
    const pending = callOperation('login', { email: 'a@b.co', password: 'x' }, { signal: controller.signal, timeoutMs: 10_000 });
    controller.abort();
    expect((await pending).code).toBe('NETWORK_ERROR');
  });

  it('an unknown operation throws UnknownOperationError without calling fetch', async () => {
    const fetchMock = stubFetch(() => json({}));
    await expect(callOperation('teleport', {})).rejects.toBeInstanceOf(UnknownOperationError);
    await expect(callOperation('toString', {})).rejects.toThrow(/Unknown operation "toString"/);
    expect(fetchMock).not.toHaveBeenCalled();
    expect(isOperation('login')).toBe(true);
    expect(isOperation('constructor')).toBe(false);
  });
});

describe('report.shouldReport', () => {
  it.each([
    [400, false],
    [401, false],
    [403, false],
    [404, false],
    [429, false],
    [499, false],
    [502, false],
    [0, false],
    [500, true],
    [503, true],
    [504, true],
    [200, true],
  ])('status %i → %s', (status, expected) => {
    expect(shouldReport({ code: status === 200 ? 'UNKNOWN_CODE' : `HTTP_${status}`, status })).toBe(expected);
  });

  it('a missing status counts as 0 (network): not reported', () => {
    expect(shouldReport({ code: 'NETWORK_ERROR' })).toBe(false);
  });

  it('reportFailure sends only reportable failures to the sink', () => {
    const sink = vi.fn();
    setReportSink(sink);
    reportFailure({ code: 'HTTP_404', status: 404 });
    reportFailure({ code: 'HTTP_502', status: 502 });
    reportFailure({ code: 'NETWORK_ERROR', status: 0 });
    reportFailure({ operation: 'login', code: 'HTTP_500', status: 500, incidentId: 'inc-9' });
    reportFailure({ operation: 'login', code: 'WEIRD', status: 200 });
    expect(sink.mock.calls).toEqual([
      [{ operation: 'login', code: 'HTTP_500', status: 500, incidentId: 'inc-9' }],
      [{ operation: 'login', code: 'WEIRD', status: 200 }],
    ]);
  });
});
