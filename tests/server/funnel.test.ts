/**
 * Issue 38 on the run's engine: funnel events (POST /ws/events: contract-checked, capped, limited,
 * dropped silently, private by construction), experiment assignment (sticky, deterministic), the
 * retention purge, the demo's experiment and the studio's funnel and experiment actions.
 */
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoFunnel, DEMO_EXPERIMENT, DEMO_HISTORY } from '../../server/db/demoFunnel';
import { countFunnelEvents } from '../../server/db/funnel';
import { bucketOf, variantOf } from '../../server/services/experiments';
import { visitorHash } from '../../server/services/funnel';
import { compareRates } from '../../server/services/funnelReport';
import { purgeExpired } from '../../server/services/housekeeping';
import { LIMITS } from '../../server/services/limits';
import type { FunnelReport } from '../../catalogue/studio-contract';
import { makeApp } from './helpers';
import { PEOPLE, studioServer, type StudioServer } from './studio-helpers';

const DAY = 24 * 60 * 60 * 1000;
const VID = 'browser-id-0123456789abcdef';
const cookieOf = (res: LightMyRequestResponse) => res.cookies.find((c) => c.name === 'fd_vid');

let clock = Date.UTC(2026, 10, 28, 12);
let app: FastifyInstance;

beforeAll(async () => {
  app = await makeApp({ seed: false, now: () => clock });
});
afterAll(async () => {
  await app.close();
});

const events = (body: unknown, cookie = VID, extra: Record<string, string> = {}) =>
  app.inject({ method: 'POST', url: '/ws/events', payload: body as object, cookies: { fd_vid: cookie }, headers: extra });

describe('POST /ws/events', () => {
  it('stores names and codes with a daily visitor hash, never the browser id; answers 202', async () => {
    const before = await countFunnelEvents(app.fd.data);
    const res = await events({
      events: [
        { kind: 'step', screen: 'login', step: 'credentials' },
        { kind: 'fieldError', screen: 'login', step: 'credentials', field: 'email', keyword: 'format', ms: 900 },
        { kind: 'submit', screen: 'login', step: 'credentials', ms: 2100 },
        { kind: 'outcome', screen: 'login', step: 'credentials', code: 'INVALID_CREDENTIALS', ms: 2300 },
      ],
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ accepted: 4 });
    expect(await countFunnelEvents(app.fd.data)).toBe(before + 4);
    const rows = await app.fd.data.all<Record<string, unknown>>('SELECT * FROM funnel_events WHERE screen = ? ORDER BY id', ['login']);
    const visitor = visitorHash(app.fd.secrets.tokenKey, VID, clock);
    expect(rows.map((r) => [r.kind, r.field, r.keyword, r.code, r.visitor, r.variant, r.version])).toEqual([
      ['step', null, null, null, visitor, '-', 'v0'],
      ['fieldError', 'email', 'format', null, visitor, '-', 'v0'],
      ['submit', null, null, null, visitor, '-', 'v0'],
      ['outcome', null, null, 'INVALID_CREDENTIALS', visitor, '-', 'v0'],
    ]);
    expect(JSON.stringify(rows)).not.toContain(VID);
  });

  it('hashes one browser alike within a day and differently the next day', () => {
    const key = app.fd.secrets.tokenKey;
    expect(visitorHash(key, VID, clock)).toBe(visitorHash(key, VID, clock + 60_000));
    expect(visitorHash(key, VID, clock + DAY)).not.toBe(visitorHash(key, VID, clock));
    expect(visitorHash(key, 'another-browser-id-00000', clock)).not.toBe(visitorHash(key, VID, clock));
  });

  it('gives a browser without an id a random one in an HttpOnly first-party cookie', async () => {
    const res = await app.inject({ method: 'POST', url: '/ws/events', payload: { events: [{ kind: 'step', screen: 'login', step: 'credentials' }] } });
    expect(res.statusCode).toBe(202);
    const cookie = cookieOf(res);
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{24}$/);
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    // Control: a browser that has one keeps it.
    expect(cookieOf(await events({ events: [{ kind: 'step', screen: 'login', step: 'credentials' }] }))).toBeUndefined();
  });

  it('refuses a value, an email or an unknown member with 400 and a clear error, never a 5xx', async () => {
    const bad = [
      { events: [{ kind: 'fieldError', screen: 'login', field: 'email', keyword: 'format', value: 'someone@example.com' }] },
      { events: [{ kind: 'fieldError', screen: 'login', field: 'someone@example.com', keyword: 'format' }] },
      { events: [{ kind: 'outcome', screen: 'login', code: 'Demo-Passw0rd!' }] },
      { events: [{ kind: 'typed', screen: 'login' }] },
      { events: [] },
      { events: Array.from({ length: 41 }, () => ({ kind: 'step', screen: 'login', step: 'credentials' })) },
      { nothing: true },
    ];
    for (const body of bad) {
      const res = await events(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ error: expect.any(String), message: expect.any(String) });
    }
    const garbage = await app.inject({ method: 'POST', url: '/ws/events', payload: '{"events": [', headers: { 'content-type': 'application/json' } });
    expect(garbage.statusCode).toBe(400);
    const huge = await events({ events: [{ kind: 'step', screen: 'login', step: 'x'.repeat(9000) }] });
    expect(huge.statusCode).toBe(413);
  });

  it('drops the batches of an address beyond its limit silently (202, nothing stored); another address goes on', async () => {
    const batch = { events: [{ kind: 'step', screen: 'register', step: 'form' }] };
    const from = (ip: string) => app.inject({ method: 'POST', url: '/ws/events', payload: batch, cookies: { fd_vid: VID }, remoteAddress: ip });
    for (let i = 0; i < LIMITS.eventBatchesPerAddressPerMinute; i += 1) expect((await from('192.0.2.7')).json()).toEqual({ accepted: 1 });
    const over = await from('192.0.2.7');
    expect(over.statusCode).toBe(202);
    expect(over.json()).toEqual({ accepted: 0 });
    // Control: the limit is the address's.
    expect((await from('192.0.2.8')).json()).toEqual({ accepted: 1 });
  });

  it('purges events older than the retention, keeps newer ones', async () => {
    const data = app.fd.data;
    const before = await countFunnelEvents(data);
    clock -= 40 * DAY;
    await events({ events: [{ kind: 'step', screen: 'mfa', step: 'code' }] });
    clock += 40 * DAY;
    expect(await countFunnelEvents(data)).toBe(before + 1);
    await purgeExpired(data, clock, 30);
    expect(await countFunnelEvents(data)).toBe(before);
  });
});

describe('experiment assignment', () => {
  it('is deterministic per browser and experiment, and splits 50/50 close to evenly', () => {
    const experiment = {
      id: 'e1',
      variants: [
        { name: 'A', share: 50, texts: {} },
        { name: 'B', share: 50, texts: {} },
      ],
    };
    expect(variantOf(experiment, VID)).toBe(variantOf(experiment, VID));
    expect(bucketOf('e1', VID)).toBe(bucketOf('e1', VID));
    const ids = Array.from({ length: 4000 }, (_, i) => `browser-${i}-abcdefghijklmnop`);
    const b = ids.filter((id) => variantOf(experiment, id) === 'B').length;
    expect(b / ids.length).toBeGreaterThan(0.46);
    expect(b / ids.length).toBeLessThan(0.54);
    // Another experiment splits the same browsers independently.
    const other = ids.filter((id) => variantOf({ ...experiment, id: 'e2' }, id) === variantOf(experiment, id)).length / ids.length;
    expect(other).toBeGreaterThan(0.45);
    expect(other).toBeLessThan(0.55);
  });

  it('compares completion rates with a 95 % interval, and says "too few" below the minimum', () => {
    const clear = compareRates({ name: 'A', n: 120, k: 48 }, { name: 'B', n: 120, k: 66 });
    expect(clear).toMatchObject({ verdict: 'secondBetter', difference: 15 });
    expect(clear.low).toBeGreaterThan(0);
    expect(clear.high).toBeLessThan(30);
    expect(compareRates({ name: 'A', n: 400, k: 200 }, { name: 'B', n: 400, k: 204 }).verdict).toBe('noDifference');
    expect(compareRates({ name: 'A', n: 400, k: 250 }, { name: 'B', n: 400, k: 150 }).verdict).toBe('firstBetter');
    expect(compareRates({ name: 'A', n: 10, k: 5 }, { name: 'B', n: 10, k: 9 })).toMatchObject({ verdict: 'tooFew', difference: null });
  });
});

describe('experiments in the studio', { timeout: 60_000 }, () => {
  let server: StudioServer;
  let approver: { cookie: string };
  let editor: { cookie: string };
  beforeAll(async () => {
    server = await studioServer();
    approver = await server.as(PEOPLE.approver);
    editor = await server.as(PEOPLE.editor);
  });
  afterAll(async () => {
    await server.close();
  });
  const assignments = async (vid: string) =>
    (await server.app.inject({ url: '/ws/experiments', cookies: { fd_vid: vid } })).json() as {
      assignments: Array<{ experiment: string; variant: string; texts: Record<string, string> }>;
    };

  it("shows the demo experiment's generated history: visitors, completions and the verdict per variant", async () => {
    await server.data.tx((t) => seedDemoFunnel(t, server.app.fd.now()));
    const res = await server.call(editor, { url: `/dev/studio/api/funnel?screen=${DEMO_EXPERIMENT.screen}` });
    expect(res.statusCode).toBe(200);
    const report = res.json() as FunnelReport;
    expect(report.variants.map((v) => [v.variant, v.visitors, v.completed])).toEqual([
      ['A', DEMO_HISTORY.visitorsPerVariant, DEMO_HISTORY.created.A],
      ['B', DEMO_HISTORY.visitorsPerVariant, DEMO_HISTORY.created.B],
    ]);
    const offer = report.variants[0]?.steps.find((s) => s.step === 'offer');
    expect(offer).toMatchObject({ shown: 120, submitted: 48, left: 72 });
    expect(offer?.medianMs).toBeGreaterThan(0);
    expect(report.comparison).toMatchObject({ first: 'A', second: 'B', verdict: 'secondBetter' });
    // Without a studio person: nothing.
    expect((await server.call(undefined, { url: `/dev/studio/api/funnel?screen=${DEMO_EXPERIMENT.screen}` })).statusCode).toBe(401);
  });

  it('assigns a browser the same variant on every call and counts its events under it', async () => {
    const first = await assignments(VID);
    expect(first.assignments).toHaveLength(1);
    expect((await assignments(VID)).assignments).toEqual(first.assignments);
    const variant = first.assignments[0]?.variant;
    await server.app.inject({
      method: 'POST',
      url: '/ws/events',
      cookies: { fd_vid: VID },
      payload: { events: [{ kind: 'step', screen: 'passkeyOffer', step: 'offer' }] },
    });
    const row = await server.data.get<{ variant: string }>("SELECT variant FROM funnel_events WHERE visitor NOT LIKE 'demo-%' ORDER BY id DESC");
    expect(row?.variant).toBe(variant);
  });

  it('lets an approver, not an editor, start an experiment; never on a text the spec fixes', async () => {
    const body = {
      id: 'login-or',
      screen: 'login',
      textKey: 'passkey.signIn.or',
      variants: [
        { name: 'A', share: 50, texts: {} },
        { name: 'B', share: 50, texts: { 'en-us': 'or else' } },
      ],
    };
    const start = (who: { cookie: string }, payload: object) => server.call(who, { method: 'POST', url: '/dev/studio/api/experiments', payload });
    expect((await start(editor, body)).statusCode).toBe(403);
    expect((await start(approver, { ...body, textKey: 'login.title' })).json()).toMatchObject({ error: 'INVALID_EXPERIMENT' });
    expect((await start(approver, { ...body, textKey: 'passkey.signIn.button' })).json()).toMatchObject({ error: 'INVALID_EXPERIMENT' });
    expect(
      (
        await start(approver, {
          ...body,
          variants: [
            { name: 'A', share: 60, texts: {} },
            { name: 'B', share: 50, texts: {} },
          ],
        })
      ).statusCode,
    ).toBe(400);
    expect((await start(approver, { ...body, textKey: 'passkey.nothing.here' })).json()).toMatchObject({ error: 'UNKNOWN_TEXT' });
    // Control: the approver's valid experiment starts.
    expect((await start(approver, body)).statusCode).toBe(201);
    expect((await start(approver, body)).statusCode).toBe(409);
    const listed = (await server.call(editor, { url: '/dev/studio/api/experiments' })).json() as { experiments: Array<{ id: string; status: string }> };
    expect(listed.experiments.map((e) => [e.id, e.status])).toContainEqual(['login-or', 'running']);
  });

  it('promoting the winner shows it to every browser; stopping shows the catalogue again', async () => {
    const promote = (who: { cookie: string }, winner: string) =>
      server.call(who, { method: 'POST', url: `/dev/studio/api/experiments/${DEMO_EXPERIMENT.id}/promote`, payload: { winner } });
    expect((await promote(editor, 'B')).statusCode).toBe(403);
    expect((await promote(approver, 'Z')).statusCode).toBe(400);
    expect((await promote(approver, 'B')).statusCode).toBe(200);
    for (const vid of ['browser-one-0000000000000', 'browser-two-0000000000000', 'browser-three-00000000000']) {
      const offer = (await assignments(vid)).assignments.find((a) => a.experiment === DEMO_EXPERIMENT.id);
      expect(offer?.variant).toBe('B');
    }
    expect((await promote(approver, 'A')).json()).toMatchObject({ error: 'NOT_RUNNING' });
    expect((await server.call(approver, { method: 'POST', url: '/dev/studio/api/experiments/login-or/stop', payload: {} })).statusCode).toBe(200);
    expect((await assignments(VID)).assignments.map((a) => a.experiment)).toEqual([DEMO_EXPERIMENT.id]);
  });
});
