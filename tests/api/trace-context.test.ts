import { afterEach, describe, expect, it, vi } from 'vitest';
import { adoptAppConfig } from '../../src/api/app-config';
import { callOperation } from '../../src/api/client';
import { operationCaller } from '../../src/api/operation-caller';
import { traceparent } from '../../src/api/trace-context';
import { setTraceContext } from '../../src/api/trace-switch';

/**
 * W3C trace context on the API calls (src/api/trace-context.ts): with the server's traces on (app
 * config `tracing`), every call carries a well-formed traceparent, the calls of one action share its
 * trace id; off, no call carries one.
 */
const TRACEPARENT = /^00-([0-9a-f]{32})-([0-9a-f]{16})-01$/;

const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });

/** The fetch of the calls: each answer in turn; returns the headers every call sent. */
function stubFetch(answers: Response[]) {
  const sent: Record<string, string>[] = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (_url: string, init: RequestInit) => {
      sent.push({ ...(init.headers as Record<string, string>) });
      return answers[sent.length - 1] ?? json({ resultCode: 'SUCCESS' });
    }),
  );
  return sent;
}

const appConfig = { environment: 'development', selfRegistrationEnabled: true, botCheck: { provider: 'altcha' } } as const;

afterEach(() => {
  vi.unstubAllGlobals();
  setTraceContext(false);
});

describe('traceparent', () => {
  it('is 00-<32 hex trace id>-<16 hex span id>-01, random, a new span for each call of one action', () => {
    setTraceContext(true);
    const action = {};
    const [a, b] = [traceparent(action), traceparent(action)].map((h) => TRACEPARENT.exec(h ?? ''));
    expect(a).not.toBeNull();
    expect(b?.[1]).toBe(a?.[1]);
    expect(b?.[2]).not.toBe(a?.[2]);
    // Another action, or a call of none: another trace.
    expect(TRACEPARENT.exec(traceparent({}) ?? '')?.[1]).not.toBe(a?.[1]);
    expect(TRACEPARENT.exec(traceparent() ?? '')?.[1]).not.toBe(a?.[1]);
  });

  it('is never made while traces are off', () => {
    expect(traceparent()).toBeUndefined();
    expect(traceparent({})).toBeUndefined();
  });
});

describe('the API calls', () => {
  it('carry it when the app config says tracing, and not when it does not', async () => {
    adoptAppConfig({ ...appConfig, tracing: true });
    let sent = stubFetch([json({ resultCode: 'SUCCESS' })]);
    await callOperation('login', { email: 'jo@example.com', password: 'pw' });
    expect(sent[0]?.traceparent).toMatch(TRACEPARENT);

    adoptAppConfig(appConfig);
    sent = stubFetch([json({ resultCode: 'SUCCESS' })]);
    await callOperation('login', { email: 'jo@example.com', password: 'pw' });
    expect(sent[0]).toEqual({ Accept: 'application/json', 'Content-Type': 'application/json' });
  });

  it('one action is one trace: a submit and its retry share the trace id, each attempt its own span; the next submit a new trace', async () => {
    setTraceContext(true);
    const sent = stubFetch([new Response('', { status: 502 }), json({ resultCode: 'SUCCESS' }), json({ resultCode: 'SUCCESS' })]);
    const call = operationCaller({ provider: 'altcha' });
    expect((await call('login', { email: 'jo@example.com', password: 'pw' }, { retryEveryMs: 1 })).code).toBe('SUCCESS');
    await call('login', { email: 'jo@example.com', password: 'pw' });
    const [first, retry, next] = sent.map((h) => TRACEPARENT.exec(h.traceparent ?? '')!);
    expect(retry![1]).toBe(first![1]);
    expect(retry![2]).not.toBe(first![2]);
    expect(next![1]).not.toBe(first![1]);
  });
});
