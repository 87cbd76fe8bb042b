import fc from 'fast-check';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadContract, type Operation } from '../../server/contract';
import { makeApp, PASSWORD } from './helpers';

/**
 * Property: whatever arrives (any operation, any body, any content type, any path or query value),
 * the server answers below 500 and keeps running. The only 5xx allowed is the deliberate
 * 501 NOT_IMPLEMENTED of a contract operation nobody has implemented yet.
 * Rate limits are off so generated calls reach the handlers; scrypt is cheap so 10,000 calls fit in
 * well under a minute.
 */
export const FUZZ_RUNS = 10_000;

const contract = loadContract();
const operations = [...contract.operations.values()];

const DEMO_VALUES = [
  'tech@demo.test',
  'nomfa@demo.test',
  'sms@demo.test',
  'setup@demo.test',
  'captcha-fail@demo.test',
  'TECH@DEMO.TEST ',
  PASSWORD,
  'DEMO-TRIAL',
  'DEMO-INVITE-NATIVE',
  'DEMO-DIVISION',
  '123456',
  'EMAIL',
  'TEXT',
  'TOTP',
  'SMSOTP',
  'DUO',
  'U2F_TOKEN',
  '',
  ' ',
  '\u0000',
  '../../etc/passwd',
  '<script>alert(1)</script>',
  "' OR 1=1 --",
  '__proto__',
  'constructor',
  '%00',
  '\uD800',
  'a'.repeat(5000),
  '{"a":',
  'null',
  '-1',
  '1e309',
  '+14155550123',
  'javascript:alert(1)',
  '//evil.com',
];

/** Values of any JSON type, biased to strings the handlers care about. */
const value: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...DEMO_VALUES) },
  { weight: 2, arbitrary: fc.string({ unit: 'binary', maxLength: 80 }) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(true, false, null, 0, -1, 2 ** 53, 1.5, [], {}) },
);

/** A body built from the operation's own field names (so validation passes often and handlers run). */
function shapedBody(op: Operation): fc.Arbitrary<unknown> {
  const props = Object.keys(((op.request ?? {}) as { properties?: Record<string, unknown> }).properties ?? {});
  if (props.length === 0) return fc.dictionary(fc.string({ maxLength: 10 }), value, { maxKeys: 4 });
  const fields = Object.fromEntries(props.map((p) => [p, value]));
  return fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.option(fc.dictionary(fc.constantFrom('extra', '__proto__', 'constructor', 'isAdmin', props[0] as string), value, { maxKeys: 2 }), { nil: undefined }),
    )
    .map(([body, extra]) => (extra ? { ...body, ...extra } : body));
}

const rawPayload = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
  fc.constantFrom('{', '[]', '""', 'null', '{"email":', '\u0000', '{"a":1}{"b":2}', '{"__proto__":{"x":1}}', ' '.repeat(100)),
);

const contentType = fc.oneof(
  { weight: 8, arbitrary: fc.constant('application/json') },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      'application/json; charset=utf-16',
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
      'application/xml',
      'APPLICATION/JSON',
      '',
      'application/json;;',
    ),
  },
);

/** Percent-encoding; a lone surrogate becomes the bytes of an invalid UTF-8 sequence (worth sending too). */
const enc = (v: unknown): string => {
  try {
    return encodeURIComponent(String(v));
  } catch {
    return '%ED%A0%80';
  }
};

/** One generated request. */
const request: fc.Arbitrary<InjectOptions> = fc.constantFrom(...operations).chain((op) => {
  const params = (op.path.match(/\{(\w+)\}/g) ?? []).length;
  const path = fc.array(fc.oneof(fc.constantFrom(...DEMO_VALUES), fc.string({ maxLength: 40 })), { minLength: params, maxLength: params }).map((values) => {
    let i = 0;
    return op.path.replace(/\{\w+\}/g, () => enc(values[i++] ?? '') || 'x');
  });
  const query = fc
    .dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.oneof(fc.constantFrom(...DEMO_VALUES), fc.string({ maxLength: 40 })), { maxKeys: 3 })
    .map((q) =>
      Object.entries(q)
        .map(([k, v]) => `${enc(k)}=${enc(v)}`)
        .join('&'),
    );
  const method = fc.oneof({ weight: 9, arbitrary: fc.constant(op.method) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH') });
  const body = fc.oneof(
    { weight: 5, arbitrary: shapedBody(op).map((b) => JSON.stringify(b)) },
    { weight: 2, arbitrary: rawPayload },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
  return fc.record({ path, query, method, body, contentType }).map(({ path: p, query: q, method: m, body: b, contentType: ct }) => {
    const options: InjectOptions = { method: m as InjectOptions['method'], url: q ? `${p}?${q}` : p, headers: {} };
    if (m !== 'GET' && b !== undefined) {
      options.payload = b;
      if (ct) (options.headers as Record<string, string>)['content-type'] = ct;
    }
    return options;
  });
});

describe('fuzz: generated requests across every endpoint', () => {
  let app: FastifyInstance;
  const seen = new Map<number, number>();
  beforeAll(async () => {
    app = await makeApp({ rateLimit: false });
  });
  afterAll(() => app.close());

  it(`${FUZZ_RUNS} requests: no 5xx (but 501 NOT_IMPLEMENTED), every error is JSON {error, message}, the server stays up`, async () => {
    await fc.assert(
      fc.asyncProperty(request, async (req) => {
        const res = await app.inject(req);
        seen.set(res.statusCode, (seen.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) {
          expect(res.statusCode, `${req.method} ${req.url} ${String(req.payload).slice(0, 200)} -> ${res.body.slice(0, 300)}`).toBe(501);
          expect(res.json()).toMatchObject({ error: 'NOT_IMPLEMENTED' });
        }
        if (res.statusCode >= 400 && String(res.headers['content-type']).startsWith('application/json')) {
          const body = res.json() as Record<string, unknown>;
          expect(typeof body.error).toBe('string');
          expect(typeof body.message).toBe('string');
          expect(res.body).not.toMatch(/at \S+ \(|node_modules|\/work\//); // no stack traces or paths
        }
      }),
      { numRuns: FUZZ_RUNS, seed: Number(process.env.FUZZ_SEED ?? 20240611), endOnFailure: true },
    );
    const health = await app.inject({ url: '/healthz' });
    expect(health.statusCode).toBe(200);
    const total = [...seen.values()].reduce((a, b) => a + b, 0);
    expect(total).toBe(FUZZ_RUNS);
    // The generator reaches the handlers (2xx business outcomes), not only the validators.
    expect(seen.get(200) ?? 0).toBeGreaterThan(FUZZ_RUNS / 50);
    console.log('fuzz status counts', Object.fromEntries([...seen.entries()].sort(([a], [b]) => a - b)));
  }, 120_000);
});
