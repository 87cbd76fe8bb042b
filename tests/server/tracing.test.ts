/**
 * Traces (server/ops/tracing.ts, docs/deploy.md "Traces"): with a collector configured, a sign-in that
 * carries the browser's traceparent is one trace: the request's server span is the child of the
 * browser's span, the database statements children of it, and no span holds the email or password
 * typed. A malformed traceparent is ignored (a trace of its own, never a 4xx). Without a collector,
 * OpenTelemetry is never imported and the data layer is not wrapped (the built server started as the
 * image does resolves no @opentelemetry module: tests/build/runtime-stage.test.ts). The collector is a local
 * OTLP/HTTP receiver that keeps what the exporter posts to /v1/traces (JSON).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClaimedDelivery, Sender } from '../../server/delivery/types';
import { NO_TRACING, startTracing } from '../../server/ops/tracing';
import { makeApp, PASSWORD, post, send } from './helpers';

interface OtlpValue {
  stringValue?: string;
  intValue?: string | number;
  boolValue?: boolean;
}
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: OtlpValue }[];
}
interface OtlpExport {
  resourceSpans: { resource: { attributes: { key: string; value: OtlpValue }[] }; scopeSpans: { spans: OtlpSpan[] }[] }[];
}

/** OTLP's SpanKind numbers (SPAN_KIND_SERVER = 2). */
const SERVER_KIND = 2;
const EMAIL = 'nomfa@demo.test';

const received: OtlpExport[] = [];
const collector = http.createServer((req, res) => {
  const chunks: Buffer[] = [];
  req.on('data', (c: Buffer) => chunks.push(c));
  req.on('end', () => {
    if (req.method === 'POST' && req.url === '/v1/traces' && req.headers['content-type'] === 'application/json') {
      received.push(JSON.parse(Buffer.concat(chunks).toString('utf8')) as OtlpExport);
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{}');
    } else res.writeHead(404).end();
  });
});

const spans = () => received.flatMap((e) => e.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)));
const attribute = (span: OtlpSpan, key: string) => {
  const v = span.attributes.find((a) => a.key === key)?.value;
  return v?.stringValue ?? (v?.intValue === undefined ? v?.boolValue : Number(v.intValue));
};
const hex = (bytes: number) =>
  Array.from({ length: bytes }, () =>
    Math.floor(Math.random() * 256)
      .toString(16)
      .padStart(2, '0'),
  ).join('');

let app: FastifyInstance;
const emails: ClaimedDelivery[] = [];
const email: Sender = { channel: 'email', name: 'fake', send: async (m) => (emails.push(m), { ok: true, answer: '250 ok' }) };

beforeAll(async () => {
  await new Promise<void>((resolve) => collector.listen(0, '127.0.0.1', resolve));
  app = await makeApp({ otlpEndpoint: `http://127.0.0.1:${(collector.address() as AddressInfo).port}/`, senders: { email } });
});

afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => collector.close(resolve));
});

describe('with OTEL_EXPORTER_OTLP_ENDPOINT: one sign-in is one trace', () => {
  it('the request is the browser span’s child, its statements the request’s; no span holds what was typed', async () => {
    const traceId = hex(16);
    const browserSpan = hex(8);
    const res = await post(app, '/ws/account/login', { email: EMAIL, password: PASSWORD }, { headers: { traceparent: `00-${traceId}-${browserSpan}-01` } });
    expect(res.json()).toMatchObject({ resultCode: 'SUCCESS' });
    await app.fd.tracing.flush();

    const trace = spans().filter((s) => s.traceId === traceId);
    const request = trace.find((s) => s.kind === SERVER_KIND);
    expect(request).toMatchObject({ name: 'POST /ws/account/login', parentSpanId: browserSpan });
    expect(attribute(request!, 'http.route')).toBe('/ws/account/login');
    expect(attribute(request!, 'http.response.status_code')).toBe(200);

    // Statements outside a transaction are the request's children; those inside, the transaction's.
    const children = trace.filter((s) => s.parentSpanId === request!.spanId);
    const statements = trace.filter((s) => typeof attribute(s, 'db.query.text') === 'string');
    expect(children.some((s) => attribute(s, 'db.query.text') !== undefined)).toBe(true);
    expect(statements.some((s) => /^SELECT users?\b/.test(s.name))).toBe(true);
    const ids = new Set(trace.map((s) => s.spanId));
    for (const s of statements) expect(ids.has(s.parentSpanId ?? '')).toBe(true);
    expect(attribute(statements[0]!, 'db.system.name')).toBe(app.fd.data.engine === 'postgres' ? 'postgresql' : 'sqlite');

    const values = JSON.stringify(trace.map((s) => [s.name, s.attributes]));
    expect(values).not.toContain(EMAIL);
    expect(values).not.toContain(PASSWORD);
    expect(received[0]?.resourceSpans[0]?.resource.attributes).toContainEqual({ key: 'service.name', value: { stringValue: 'frontdoor' } });
  });

  it('a malformed traceparent is ignored: the answer is the usual one, the request a trace of its own', async () => {
    for (const bad of ['00-zz-11-01', `00-${'0'.repeat(32)}-${hex(8)}-01`, 'x'.repeat(600)]) {
      received.length = 0;
      const res = await send(app, { method: 'GET', url: '/ws/app-config', headers: { traceparent: bad } });
      expect(res.statusCode, bad).toBe(200);
      await app.fd.tracing.flush();
      const request = spans().find((s) => s.kind === SERVER_KIND && s.name === 'GET /ws/app-config');
      expect(request?.parentSpanId ?? '', bad).toBe('');
      expect(request?.traceId).toMatch(/^[0-9a-f]{32}$/);
    }
    // A sign-in with one still signs in.
    const signIn = await post(app, '/ws/account/login', { email: EMAIL, password: PASSWORD }, { headers: { traceparent: '01-nonsense' } });
    expect(signIn.json()).toMatchObject({ resultCode: 'SUCCESS' });
  });

  it('a delivery is a trace of its own: channel and kind, never the address', async () => {
    received.length = 0;
    const res = await post(app, '/ws/account/reset-password-init', { email: EMAIL, verifyBy: 'EMAIL' });
    expect(res.json()).toEqual({ resultCode: 'SUCCESS' });
    await app.fd.delivery.worker.runOnce();
    expect(emails.map((m) => m.to)).toEqual([EMAIL]);
    await app.fd.tracing.flush();
    const delivery = spans().find((s) => s.name === 'delivery email');
    expect(delivery?.parentSpanId ?? '').toBe('');
    expect(attribute(delivery!, 'frontdoor.delivery.channel')).toBe('email');
    // Its statements (settling the row) are its children.
    expect(spans().some((s) => s.parentSpanId === delivery!.spanId && /^UPDATE deliveries/.test(s.name))).toBe(true);
    expect(JSON.stringify(spans().map((s) => [s.name, s.attributes]))).not.toContain(EMAIL);
  });

  it('app-config tells the browser to send traceparent', async () => {
    expect((await send(app, { method: 'GET', url: '/ws/app-config' })).json()).toMatchObject({ tracing: true });
  });
});

describe('without OTEL_EXPORTER_OTLP_ENDPOINT nothing is loaded', () => {
  it('OpenTelemetry is never imported, the data layer not wrapped, the browser not asked for traceparent', async () => {
    const load = vi.fn(() => import('../../server/ops/otel'));
    expect(await startTracing(undefined, load)).toBe(NO_TRACING);
    expect(await startTracing('', load)).toBe(NO_TRACING);
    expect(load).not.toHaveBeenCalled();
    // Control: with an endpoint the same seam is what loads it.
    const on = await startTracing('http://127.0.0.1:9/', load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(on.enabled).toBe(true);
    await on.shutdown();

    const off = await makeApp();
    try {
      expect(off.fd.tracing).toBe(NO_TRACING);
      expect(off.fd.data.constructor.name).not.toBe('Object');
      expect((await send(off, { method: 'GET', url: '/ws/app-config' })).json()).not.toHaveProperty('tracing');
    } finally {
      await off.close();
    }
  });
});
