/**
 * Issue 38's rollout of a reviewed change and the targeting of experiments, on the run's engine (the
 * postgres project runs it again on PostgreSQL): only an approved change of texts the spec does not
 * fix rolls out; it varies every text the change changes (A: the live texts, B: the change's) for a
 * share of the visitors, optionally on some branded hosts and in some languages; promote publishes it
 * and ends the rollout, stop ends it with the live texts kept; each is an approver's action naming the
 * revision read, and recorded in the change's history.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeDetail, ExperimentSummary } from '../../catalogue/studio-contract';
import Database from 'better-sqlite3';
import { sql } from 'kysely';
import { brandingRows, insertBranding } from '../../server/db/branding';
import { sqliteSchemaDb } from '../../server/db/migrations';
import { MIGRATIONS } from '../../server/db/migrations/index';
import { migrationContext } from '../../server/db/schema';
import { PEOPLE, studioServer, type StudioServer } from './studio-helpers';

type Who = { cookie: string };
type Assignment = { experiment: string; variant: string; textKey: string; texts: Record<string, string> };
const BRANDED = 'branded.localhost';
const OR_TEXT = 'or, if you like';
const FAILED_TEXT = 'No passkey was used: try again.';
const DE_OR_TEXT = 'oder, wenn Sie möchten';

let s: StudioServer;
let editor: Who;
let approver: Who;
let approver2: Who;

beforeAll(async () => {
  s = await studioServer();
  // A branded host (the demo's, which this server is not seeded with).
  await insertBranding(s.data, {
    hostname: BRANDED,
    is_enabled: 1,
    theme: null,
    browser_name: 'Acme IT',
    browser_enabled: 1,
    login_logo: null,
    browser_icon: null,
    public_url: null,
  });
  await s.app.fd.branding.refresh();
  [editor, approver, approver2] = [await s.as(PEOPLE.editor), await s.as(PEOPLE.approver), await s.as(PEOPLE.approver2)];
});
afterAll(async () => {
  await s?.close();
});

const json = async <T>(who: Who | undefined, options: InjectOptions, status = 200): Promise<T> => {
  const res = await s.call(who, options);
  expect(res.statusCode, `${options.method ?? 'GET'} ${String(options.url)}: ${res.body.slice(0, 400)}`).toBe(status);
  return res.json() as T;
};
const file = (path: string) => readFileSync(join(s.root, path), 'utf8');
const edited = (path: string, edit: (texts: Record<string, unknown>) => void) => {
  const texts = JSON.parse(file(path)) as Record<string, unknown>;
  edit(texts);
  return JSON.stringify(texts, null, 2);
};
const detail = async (id: number) => (await json<{ change: ChangeDetail }>(editor, { url: `/dev/studio/api/changes/${id}` })).change;

/** A draft of the login screen by the editor, asked for review and approved by the approver: its id and revision. */
async function approvedChange(edit: { screen?: string; locales?: Record<string, string> }): Promise<ChangeDetail> {
  const payload = { screenId: 'login', screen: edit.screen ?? file('screens/login.json'), locales: edit.locales ?? {}, note: 'Rollout test' };
  const { change } = await json<{ change: ChangeDetail }>(editor, { method: 'POST', url: '/dev/studio/api/changes', payload }, 201);
  await json(editor, { method: 'POST', url: `/dev/studio/api/changes/${change.id}/review`, payload: {} });
  await json(approver, { method: 'POST', url: `/dev/studio/api/changes/${change.id}/approve`, payload: { revision: change.revision } });
  return detail(change.id);
}

const act = (who: Who, id: number, action: string, payload: Record<string, unknown>) =>
  s.call(who, { method: 'POST', url: `/dev/studio/api/changes/${id}/${action}`, payload });

/** What a browser sees: its assignments, on a host, in a language (or by its Accept-Language). */
async function seen(vid: string, where: { host?: string; lang?: string; accept?: string } = {}): Promise<Assignment[]> {
  const res = await s.app.inject({
    url: `/ws/experiments${where.lang ? `?lang=${where.lang}` : ''}`,
    cookies: { fd_vid: vid },
    headers: { ...(where.host ? { host: where.host } : {}), ...(where.accept ? { 'accept-language': where.accept } : {}) },
  });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { assignments: Assignment[] }).assignments;
}
const browsers = Array.from({ length: 200 }, (_, i) => `rollout-browser-${String(i).padStart(4, '0')}-abcdefgh`);

describe('which changes roll out', () => {
  it('a change of the screen, or of a text the spec fixes, is not offered a rollout and is refused one', async () => {
    const screen = await approvedChange({ screen: edited('screens/login.json', (t) => void (t.description = 'Sign-in, described again.')) });
    expect(screen.rollout).toMatchObject({ refused: { reason: 'notTextsOnly' }, keys: [] });
    const res = await act(approver, screen.id, 'rollout', { revision: screen.revision, share: 20 });
    expect([res.statusCode, res.json()]).toEqual([400, expect.objectContaining({ error: 'NOT_TEXTS_ONLY' })]);
    const fixed = await approvedChange({ locales: { 'en-us/login.json': edited('locales/en-us/login.json', (t) => void (t.title = 'Welcome back')) } });
    expect(fixed.rollout).toMatchObject({ refused: { reason: 'fixedText', key: 'login.title' } });
    expect((await act(approver, fixed.id, 'rollout', { revision: fixed.revision, share: 20 })).json()).toMatchObject({ error: 'FIXED_TEXT' });
    for (const change of [screen, fixed]) await json(editor, { method: 'POST', url: `/dev/studio/api/changes/${change.id}/discard`, payload: {} });
  });
});

describe('a rollout of a change of two texts', () => {
  let change: ChangeDetail;
  const rolloutId = () => change.rollout.running?.id ?? '';
  const mine = (assignments: Assignment[]) => assignments.filter((a) => a.experiment === rolloutId());

  beforeAll(async () => {
    change = await approvedChange({
      locales: {
        'en-us/passkey.json': edited('locales/en-us/passkey.json', (t) => {
          t.signIn = { ...(t.signIn as object), or: OR_TEXT, failed: FAILED_TEXT };
        }),
        'de-de/passkey.json': edited('locales/de-de/passkey.json', (t) => {
          t.signIn = { ...(t.signIn as object), or: DE_OR_TEXT };
        }),
      },
    });
  });

  it('is offered for the two keys; only an approver starts it, naming the revision read', async () => {
    expect(change.rollout).toEqual({ keys: ['passkey.signIn.failed', 'passkey.signIn.or'] });
    const editorTry = await act(editor, change.id, 'rollout', { revision: change.revision, share: 50 });
    expect([editorTry.statusCode, editorTry.json()]).toEqual([403, expect.objectContaining({ error: 'NOT_APPROVER' })]);
    const stale = await act(approver, change.id, 'rollout', { revision: change.revision + 1, share: 50 });
    expect([stale.statusCode, stale.json()]).toEqual([409, expect.objectContaining({ error: 'STALE_REVISION', revision: change.revision })]);
    expect((await act(approver, change.id, 'rollout', { share: 50 })).json()).toMatchObject({ error: 'REVISION_REQUIRED' });
    expect((await act(approver, change.id, 'rollout', { revision: change.revision, share: 0 })).statusCode).toBe(400);
    expect((await act(approver, change.id, 'rollout', { revision: change.revision, share: 101 })).statusCode).toBe(400);
    expect(await seen(browsers[0]!)).toEqual([]);
    // Control: the approver's rollout starts, recorded in the change's history.
    const started = await act(approver, change.id, 'rollout', { revision: change.revision, share: 50 });
    expect(started.statusCode, started.body).toBe(201);
    change = (started.json() as { change: ChangeDetail }).change;
    expect(change.rollout.running).toMatchObject({ status: 'running', changeId: change.id, changeRevision: change.revision, hosts: [], languages: [] });
    expect(change.rollout.running?.variants.map((v) => [v.name, v.share])).toEqual([
      ['A', 50],
      ['B', 50],
    ]);
    expect(change.events.at(-1)).toMatchObject({ action: 'rollout-started', who: PEOPLE.approver, revision: change.revision, comment: '50 %' });
  });

  it('assigns each browser one variant for every key: B shows the change’s texts, A the live ones', async () => {
    const counts = { A: 0, B: 0 };
    for (const vid of browsers) {
      const assignments = mine(await seen(vid, { lang: 'en-us' }));
      expect(assignments.map((a) => a.textKey).sort()).toEqual(['passkey.signIn.failed', 'passkey.signIn.or']);
      const variant = assignments[0]!.variant as 'A' | 'B';
      expect(assignments.every((a) => a.variant === variant)).toBe(true);
      counts[variant] += 1;
      const byKey = Object.fromEntries(assignments.map((a) => [a.textKey, a.texts]));
      if (variant === 'B')
        expect(byKey).toEqual({ 'passkey.signIn.or': { 'en-us': OR_TEXT, 'de-de': DE_OR_TEXT }, 'passkey.signIn.failed': { 'en-us': FAILED_TEXT } });
      else expect(byKey).toEqual({ 'passkey.signIn.or': {}, 'passkey.signIn.failed': {} });
      // Sticky: the same browser again.
      if (vid === browsers[0]) expect(mine(await seen(vid, { lang: 'en-us' }))).toEqual(assignments);
    }
    expect(counts.A).toBeGreaterThan(70);
    expect(counts.B).toBeGreaterThan(70);
  });

  it('keeps the change as approved while it runs: no save, no discard, no publish but an approver’s', async () => {
    const save = await s.call(editor, {
      method: 'PUT',
      url: `/dev/studio/api/changes/${change.id}`,
      payload: {
        screenId: 'login',
        locales: { 'en-us/passkey.json': edited('locales/en-us/passkey.json', (t) => void (t.signIn = { ...(t.signIn as object), or: 'or else' })) },
      },
    });
    expect([save.statusCode, save.json()]).toEqual([409, expect.objectContaining({ error: 'ROLLOUT_RUNNING' })]);
    expect((await act(editor, change.id, 'discard', {})).json()).toMatchObject({ error: 'ROLLOUT_RUNNING' });
    const publish = await act(editor, change.id, 'publish', { revision: change.revision });
    expect([publish.statusCode, publish.json()]).toEqual([403, expect.objectContaining({ error: 'NOT_APPROVER' })]);
    // The experiments API does not end a rollout behind its change's back.
    const behind = await s.call(approver, { method: 'POST', url: `/dev/studio/api/experiments/${rolloutId()}/stop`, payload: {} });
    expect(behind.json()).toMatchObject({ error: 'ROLLOUT_OF_CHANGE' });
  });

  it('stop ends it: only an approver, naming the revision; the live texts stay for everyone', async () => {
    const before = file('locales/en-us/passkey.json');
    expect((await act(editor, change.id, 'rollout/stop', { revision: change.revision })).json()).toMatchObject({ error: 'NOT_APPROVER' });
    expect((await act(approver, change.id, 'rollout/stop', { revision: change.revision + 1 })).json()).toMatchObject({ error: 'STALE_REVISION' });
    const stopped = await act(approver2, change.id, 'rollout/stop', { revision: change.revision });
    expect(stopped.statusCode, stopped.body).toBe(200);
    change = (stopped.json() as { change: ChangeDetail }).change;
    expect(change.rollout.running).toBeUndefined();
    expect(change.state).toBe('approved');
    expect(change.events.at(-1)).toMatchObject({ action: 'rollout-stopped', who: PEOPLE.approver2, revision: change.revision });
    for (const vid of browsers.slice(0, 20)) expect(await seen(vid)).toEqual([]);
    expect(file('locales/en-us/passkey.json')).toBe(before);
    expect((await act(approver, change.id, 'rollout/stop', { revision: change.revision })).json()).toMatchObject({ error: 'NOT_RUNNING' });
  });

  it('targets branded hosts and languages: unknown ones refused by name; inside the share applies, outside the live texts', async () => {
    expect((await brandingRows(s.data)).map((r) => r.hostname)).toContain(BRANDED);
    const start = (payload: Record<string, unknown>) => act(approver, change.id, 'rollout', { revision: change.revision, share: 100, ...payload });
    const badHost = await start({ hosts: ['nowhere.example'] });
    expect([badHost.statusCode, badHost.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'UNKNOWN_HOST', message: expect.stringContaining('nowhere.example') }),
    ]);
    const badLanguage = await start({ hosts: [BRANDED], languages: ['xx-yy'] });
    expect([badLanguage.statusCode, badLanguage.json()]).toEqual([
      400,
      expect.objectContaining({ error: 'UNKNOWN_LANGUAGE', message: expect.stringContaining('xx-yy') }),
    ]);
    const started = await start({ hosts: ['Branded.Localhost'], languages: ['de-de'] });
    expect(started.statusCode, started.body).toBe(201);
    change = (started.json() as { change: ChangeDetail }).change;
    expect(change.rollout.running).toMatchObject({ hosts: [BRANDED], languages: ['de-de'] });
    expect(change.events.at(-1)).toMatchObject({ action: 'rollout-started', comment: `100 % · ${BRANDED} · de-de` });
    for (const vid of browsers.slice(0, 10)) {
      // Inside (the host and the language, named or by Accept-Language): B, at 100 %.
      expect(mine(await seen(vid, { host: BRANDED, lang: 'de-de' })).map((a) => a.variant)).toEqual(['B', 'B']);
      expect(mine(await seen(vid, { host: BRANDED, accept: 'de-DE,de;q=0.9' })).map((a) => a.variant)).toEqual(['B', 'B']);
      // Outside: another host, or another language.
      expect(mine(await seen(vid, { host: 'localhost', lang: 'de-de' }))).toEqual([]);
      expect(mine(await seen(vid, { host: BRANDED, lang: 'fr-fr' }))).toEqual([]);
    }
    // The funnel counts a visitor outside the target outside it, one inside under its variant.
    const event = (host: string, lang: string) =>
      s.app.inject({
        method: 'POST',
        url: '/ws/events',
        cookies: { fd_vid: browsers[0]! },
        headers: { host },
        payload: { lang, events: [{ kind: 'step', screen: 'login', step: 'credentials' }] },
      });
    for (const [host, lang] of [
      [BRANDED, 'de-de'],
      [BRANDED, 'en-us'],
      ['localhost', 'de-de'],
    ] as const)
      expect((await event(host, lang)).statusCode).toBe(202);
    const rows = await s.data.all<{ variant: string }>("SELECT variant FROM funnel_events WHERE screen = 'login' ORDER BY id DESC");
    expect(rows.slice(0, 3).map((r) => r.variant)).toEqual(['-', '-', 'B']);
  });

  it('promote publishes the change the normal way and ends the rollout: an approver’s, naming the revision', async () => {
    const id = rolloutId();
    expect((await act(editor, change.id, 'rollout/promote', { revision: change.revision })).json()).toMatchObject({ error: 'NOT_APPROVER' });
    expect((await act(approver, change.id, 'rollout/promote', { revision: change.revision + 1 })).json()).toMatchObject({ error: 'STALE_REVISION' });
    const promoted = await act(approver, change.id, 'rollout/promote', { revision: change.revision });
    expect(promoted.statusCode, promoted.body).toBe(200);
    const answer = promoted.json() as { change: ChangeDetail; version: number };
    expect(answer.version).toBeGreaterThan(0);
    expect(answer.change).toMatchObject({ state: 'published', version: answer.version });
    expect(answer.change.rollout.running).toBeUndefined();
    expect(answer.change.events.slice(-2).map((e) => e.action)).toEqual(['published', 'rollout-promoted']);
    // Published: the files have the change's texts, and no browser gets them from the rollout any more.
    expect(JSON.parse(file('locales/en-us/passkey.json'))).toMatchObject({ signIn: { or: OR_TEXT, failed: FAILED_TEXT } });
    expect(JSON.parse(file('locales/de-de/passkey.json'))).toMatchObject({ signIn: { or: DE_OR_TEXT } });
    expect(await seen(browsers[0]!, { host: BRANDED, lang: 'de-de' })).toEqual([]);
    const listed = await json<{ experiments: ExperimentSummary[] }>(editor, { url: '/dev/studio/api/experiments' });
    expect(listed.experiments.find((e) => e.id === id)).toMatchObject({ status: 'promoted', winner: 'B', changeId: change.id });
    expect((await act(approver, change.id, 'rollout/stop', { revision: change.revision })).json()).toMatchObject({ error: 'NOT_RUNNING' });
  });
});

describe('targeting an experiment started in the studio', () => {
  it('refuses an unknown host or language by name; a browser outside the target sees the catalogue', async () => {
    const body = {
      id: 'offer-de',
      screen: 'passkeyOffer',
      textKey: 'passkey.offer.text',
      variants: [
        { name: 'A', share: 1, texts: {} },
        { name: 'B', share: 99, texts: { 'de-de': 'Kürzer.' } },
      ],
    };
    const start = (payload: object) => s.call(approver, { method: 'POST', url: '/dev/studio/api/experiments', payload });
    expect((await start({ ...body, hosts: ['elsewhere.example'] })).json()).toMatchObject({
      error: 'UNKNOWN_HOST',
      message: expect.stringContaining('elsewhere.example'),
    });
    expect((await start({ ...body, languages: ['tlh'] })).json()).toMatchObject({ error: 'UNKNOWN_LANGUAGE', message: expect.stringContaining('tlh') });
    expect((await start({ ...body, languages: ['de-de'] })).statusCode).toBe(201);
    const offer = (a: Assignment[]) => a.filter((x) => x.experiment === 'offer-de').map((x) => x.variant);
    const inside = await Promise.all(browsers.slice(0, 10).map(async (vid) => offer(await seen(vid, { lang: 'de-de' }))));
    expect(inside.flat().length).toBe(10);
    expect(inside.flat().filter((v) => v === 'B').length).toBeGreaterThan(7);
    for (const vid of browsers.slice(0, 10)) expect(offer(await seen(vid, { lang: 'en-us' }))).toEqual([]);
  });
});

describe('migration 062', () => {
  it("rewrites an experiment of one text as one of several keys, and keeps its variants' shares and texts", async () => {
    const connection = new Database(':memory:');
    const db = sqliteSchemaDb(connection);
    const m = migrationContext(db, 'sqlite');
    const upTo = MIGRATIONS.findIndex((x) => x.name === '062_rollout.sql');
    for (const migration of MIGRATIONS.slice(0, upTo)) await migration.up(m);
    const variants = [
      { name: 'A', share: 50, texts: {} },
      { name: 'B', share: 50, texts: { 'en-us': 'Shorter.' } },
    ];
    await sql`INSERT INTO experiments (id, screen, text_key, variants, status, created_at, updated_at)
      VALUES ('old', 'passkeyOffer', 'passkey.offer.text', ${JSON.stringify(variants)}, 'running', 1, 1)`.execute(db);
    await MIGRATIONS[upTo]!.up(m);
    const row = connection.prepare('SELECT * FROM experiments').get() as Record<string, unknown>;
    expect(row).toMatchObject({ id: 'old', hosts: '[]', languages: '[]', change_id: null, change_revision: null });
    expect(row).not.toHaveProperty('text_key');
    expect(JSON.parse(String(row.variants))).toEqual([
      { name: 'A', share: 50, texts: { 'passkey.offer.text': {} } },
      { name: 'B', share: 50, texts: { 'passkey.offer.text': { 'en-us': 'Shorter.' } } },
    ]);
    connection.close();
  });
});
