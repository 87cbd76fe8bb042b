import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeDetail, VersionsAnswer } from '../../catalogue/studio-contract';
import { SIGN_IN_PATH } from '../../server/routes/studio/people';
import { ENGINES, POSTGRES_REQUIRED } from './db-engines';
import { catalogueCopy, PEOPLE, studioServer, type StudioServer } from './studio-helpers';

/**
 * The studio's review and history, on both engines: studio people sign in on the product's sign-in;
 * a draft changes no file; only an approver other than its author approves it, naming the revision
 * read; a publish is checked again, refused when its files changed since, and recorded as a version;
 * an approver's rollback restores any version in one call and is recorded with who did it; files
 * changed outside the studio become a version; a second instance on the same database follows the
 * first. (The attacks on review and sign-in: tests/security/issue-35/studio-*.test.ts.)
 */
type Who = { cookie: string };
/** The actions that name the revision read. */
const DECISIONS = ['approve', 'send-back', 'publish'];

const loginScreen = (root: string) => readFileSync(join(root, 'screens/login.json'), 'utf8');
const localeText = (root: string, lang: string) => readFileSync(join(root, `locales/${lang}/login.json`), 'utf8');
const withTitle = (text: string, title: string) => JSON.stringify({ ...(JSON.parse(text) as object), title }, null, 2);

for (const engine of ENGINES) {
  describe.skipIf(!engine.available && !POSTGRES_REQUIRED)(`studio review and versions on ${engine.name}`, { timeout: 60_000 }, () => {
    let s: StudioServer;
    let editor: Who;
    let approver: Who;
    let approver2: Who;
    const json = async <T>(who: Who | undefined, options: InjectOptions, status = 200): Promise<T> => {
      const res = await s.call(who, options);
      expect(res.statusCode, `${options.method ?? 'GET'} ${String(options.url)}: ${res.body.slice(0, 400)}`).toBe(status);
      return res.json() as T;
    };
    const draft = (who: Who, locales: Record<string, string>, note = 'A note') =>
      json<{ change: ChangeDetail }>(
        who,
        { method: 'POST', url: '/dev/studio/api/changes', payload: { screenId: 'login', screen: loginScreen(s.root), locales, note } },
        201,
      );
    const revisionOf = async (id: number) => (await json<{ change: ChangeDetail }>(editor, { url: `/dev/studio/api/changes/${id}` })).change.revision;
    /** An action on a change; a decision names the change's revision now unless the payload names one. */
    const act = async (who: Who, id: number, action: string, payload: Record<string, unknown> = {}) =>
      s.call(who, {
        method: 'POST',
        url: `/dev/studio/api/changes/${id}/${action}`,
        payload: DECISIONS.includes(action) && !('revision' in payload) ? { revision: await revisionOf(id), ...payload } : payload,
      });
    const rollback = async (who: Who, target: number, note = '') =>
      s.call(who, { method: 'POST', url: `/dev/studio/api/versions/${target}/rollback`, payload: { latest: (await versions()).versions[0]?.number, note } });
    const versions = () => json<VersionsAnswer>(editor, { url: '/dev/studio/api/versions' });

    beforeAll(async () => {
      s = await studioServer(engine);
      [editor, approver, approver2] = [await s.as(PEOPLE.editor), await s.as(PEOPLE.approver), await s.as(PEOPLE.approver2)];
    });
    afterAll(async () => {
      await s?.close();
    });

    it("studio people sign in on the product's sign-in: nobody, an account without a role, the sign-out", async () => {
      const me = (who?: Who) => json(who, { url: '/dev/studio/api/me' });
      expect(await me()).toEqual({ person: null, signIn: SIGN_IN_PATH, demo: true });
      expect(SIGN_IN_PATH).toBe('/login?return_to=%2Fdev%2Fstudio');
      // Demo mode admits the demo's people without a second factor, and says so.
      expect(await me(editor)).toEqual({ person: { email: PEOPLE.editor, role: 'editor' }, secondFactor: false, signIn: SIGN_IN_PATH, demo: true });
      const outsider = await s.as(PEOPLE.outsider);
      expect(await me(outsider)).toEqual({ person: null, refused: { email: PEOPLE.outsider, reason: 'NO_STUDIO_ROLE' }, signIn: SIGN_IN_PATH, demo: true });
      expect((await s.call(outsider, { url: '/dev/studio/api/changes' })).json()).toMatchObject({ error: 'NO_STUDIO_ROLE' });
      // The studio's own password sign-in is gone (it counted failures per email: issue 35).
      const old = await s.call(undefined, { method: 'POST', url: '/dev/studio/api/session', payload: { email: PEOPLE.editor, password: 'x' } });
      expect([old.statusCode, old.json()]).toEqual([410, expect.objectContaining({ error: 'SIGN_IN_MOVED' })]);
      // The studio's sign-out ends the product's session of that browser (here the outsider's).
      expect((await s.call(outsider, { method: 'DELETE', url: '/dev/studio/api/session' })).statusCode).toBe(200);
      expect((await s.call(outsider, { url: '/ws/account/session' })).statusCode).toBe(401);
    });

    it('a draft writes no file; its diff names the field relabelled per language and pictures the state in each language', async () => {
      const before = { screen: loginScreen(s.root), en: localeText(s.root, 'en-us'), de: localeText(s.root, 'de-de') };
      const en = JSON.parse(before.en) as { fields: Record<string, string> };
      const de = JSON.parse(before.de) as { fields: Record<string, string> };
      en.fields.email = 'Work email';
      de.fields.email = 'Geschäftliche E-Mail';
      const { change } = await draft(
        editor,
        { 'en-us/login.json': JSON.stringify(en, null, 2), 'de-de/login.json': JSON.stringify(de, null, 2) },
        'Say work email',
      );
      expect(change).toMatchObject({ state: 'draft', author: PEOPLE.editor, files: ['locales/de-de/login.json', 'locales/en-us/login.json'], conflicts: [] });
      expect(change.diff).toEqual(
        expect.arrayContaining([
          { kind: 'field-relabelled', screen: 'login', step: 'credentials', field: 'email', lang: 'en-us', before: 'Email', after: 'Work email' },
          expect.objectContaining({ kind: 'field-relabelled', field: 'email', lang: 'de-de', after: 'Geschäftliche E-Mail' }),
        ]),
      );
      expect(change.pictures.map((p) => `${p.screen}/${p.step}/${p.lang}`).sort()).toEqual(['login/credentials/de-de', 'login/credentials/en-us']);
      expect(change.pictures[0]?.after.map((p) => `${p.width}-${p.scheme}`)).toEqual(['375-light', '375-dark', '1280-light', '1280-dark']);
      expect({ screen: loginScreen(s.root), en: localeText(s.root, 'en-us'), de: localeText(s.root, 'de-de') }).toEqual(before);
      await act(editor, change.id, 'discard');
    });

    it('nobody approves their own change, an editor approves nothing, and a change is approved only in review', async () => {
      const { change } = await draft(editor, { 'en-us/login.json': withTitle(localeText(s.root, 'en-us'), 'Welcome back') });
      expect((await act(approver, change.id, 'approve')).json()).toMatchObject({ error: 'WRONG_STATE' });
      expect((await act(approver, change.id, 'review')).json()).toMatchObject({ error: 'NOT_AUTHOR' });
      expect((await act(editor, change.id, 'review')).statusCode).toBe(200);
      expect((await act(editor, change.id, 'approve')).json()).toMatchObject({ error: 'NOT_APPROVER' });
      // An approver's own change needs another approver.
      const own = (await draft(approver2, { 'en-us/login.json': withTitle(localeText(s.root, 'en-us'), 'Hello') })).change;
      await act(approver2, own.id, 'review');
      expect((await act(approver2, own.id, 'approve')).json()).toMatchObject({ error: 'OWN_CHANGE' });
      await act(approver2, own.id, 'discard');
      // Sending back needs a comment, which the author reads in the change's events.
      expect((await act(approver, change.id, 'send-back')).json()).toMatchObject({ error: 'COMMENT_REQUIRED' });
      const back = (await act(approver, change.id, 'send-back', { comment: 'Too casual' })).json() as { change: ChangeDetail };
      expect(back.change.state).toBe('draft');
      expect(back.change.events.map((e) => [e.action, e.who, e.comment])).toEqual([
        ['created', PEOPLE.editor, undefined],
        ['review-requested', PEOPLE.editor, undefined],
        ['sent-back', PEOPLE.approver, 'Too casual'],
      ]);
      await act(editor, change.id, 'discard');
    });

    it('two approvers approving at once: exactly one wins; an edit after the approval needs a new one', async () => {
      const { change } = await draft(editor, { 'en-us/login.json': withTitle(localeText(s.root, 'en-us'), 'Sign in, please') });
      await act(editor, change.id, 'review');
      const results = await Promise.all([act(approver, change.id, 'approve'), act(approver2, change.id, 'approve')]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const edited = await s.call(editor, {
        method: 'PUT',
        url: `/dev/studio/api/changes/${change.id}`,
        payload: { screenId: 'login', screen: loginScreen(s.root), locales: { 'en-us/login.json': withTitle(localeText(s.root, 'en-us'), 'Sign in, thanks') } },
      });
      // A new revision, in review again; the approval was of revision 1.
      expect(edited.json()).toMatchObject({ change: { state: 'review', revision: 2 } });
      expect((edited.json() as { change: ChangeDetail }).change.approvedBy).toBeUndefined();
      expect((await act(editor, change.id, 'publish', { revision: 1 })).json()).toMatchObject({ error: 'STALE_REVISION', revision: 2 });
      expect((await act(editor, change.id, 'publish')).json()).toMatchObject({ error: 'WRONG_STATE' });
      await act(editor, change.id, 'discard');
    });

    it('publish: an approved change becomes a version and its files; a stale draft is refused with the files that changed', async () => {
      const original = localeText(s.root, 'en-us');
      const first = (await draft(editor, { 'en-us/login.json': withTitle(original, 'Sign in to Acme') }, 'Brand the title')).change;
      const second = (await draft(editor, { 'en-us/login.json': withTitle(original, 'Sign in here') })).change;
      for (const id of [first.id, second.id]) {
        await act(editor, id, 'review');
        expect((await act(approver, id, 'approve')).statusCode).toBe(200);
      }
      const published = (await act(approver, first.id, 'publish')).json() as { version: number; change: ChangeDetail; publish: { state: string } };
      expect(published).toMatchObject({ version: 2, change: { state: 'published', version: 2, approvedBy: PEOPLE.approver }, publish: { state: 'off' } });
      expect(JSON.parse(localeText(s.root, 'en-us'))).toMatchObject({ title: 'Sign in to Acme' });
      const history = await versions();
      expect(history.live).toBe(2);
      expect(history.versions.map((v) => [v.number, v.kind, v.author, v.approver ?? null, v.note])).toEqual([
        [2, 'publish', PEOPLE.editor, PEOPLE.approver, 'Brand the title'],
        [1, 'baseline', '', null, ''],
      ]);
      expect(history.versions[0]?.files).toEqual(['locales/en-us/login.json']);

      const stale = await act(approver, second.id, 'publish');
      expect(stale.statusCode).toBe(409);
      expect(stale.json()).toMatchObject({ error: 'CONFLICT', conflicts: ['locales/en-us/login.json'] });
      expect(((await s.call(editor, { url: `/dev/studio/api/changes/${second.id}` })).json() as { change: ChangeDetail }).change.conflicts).toEqual([
        'locales/en-us/login.json',
      ]);
      await act(editor, second.id, 'discard');
    });

    it('rollback: any version in one call, checked and recorded with who did it; compare shows any two versions', async () => {
      const { versions: before } = await versions();
      const latest = before[0]?.number ?? 0;
      const original = JSON.parse(readFileSync(join(s.root, 'locales/en-us/login.json'), 'utf8')) as { title: string };
      expect(original.title).toBe('Sign in to Acme');
      // An approver's: an editor alone changes nothing that runs.
      expect((await rollback(editor, 1)).json()).toMatchObject({ error: 'NOT_APPROVER' });
      // It names the newest version the history showed: one published since is not undone unseen.
      const moved = await s.call(approver, { method: 'POST', url: '/dev/studio/api/versions/1/rollback', payload: { latest: latest - 1 } });
      expect([moved.statusCode, moved.json()]).toEqual([409, expect.objectContaining({ error: 'HISTORY_MOVED' })]);
      const rolled = (await rollback(approver, 1, 'Too early')).json() as { version: number };
      expect(rolled.version).toBe(latest + 1);
      expect(JSON.parse(localeText(s.root, 'en-us'))).toMatchObject({ title: 'Sign in' });
      const history = await versions();
      expect(history.versions[0]).toMatchObject({ number: latest + 1, kind: 'rollback', author: PEOPLE.approver, restores: 1, note: 'Too early' });
      // Again: nothing to do.
      expect((await rollback(approver, 1)).json()).toMatchObject({ error: 'NOTHING_CHANGED' });
      const compare = await json<{ diff: Array<Record<string, unknown>> }>(editor, { url: `/dev/studio/api/compare?from=${latest}&to=${latest + 1}` });
      expect(compare.diff).toEqual([
        expect.objectContaining({ kind: 'text-changed', lang: 'en-us', key: 'login.title', before: 'Sign in to Acme', after: 'Sign in' }),
      ]);
      expect((await s.call(editor, { url: '/dev/studio/api/compare?from=1&to=999' })).statusCode).toBe(404);
      // Roll forward: back to the publish.
      expect((await rollback(approver2, latest)).statusCode).toBe(200);
      expect(JSON.parse(localeText(s.root, 'en-us'))).toMatchObject({ title: 'Sign in to Acme' });
    });

    it('a file changed outside the studio becomes a version of its own', async () => {
      const file = join(s.root, 'locales/fr-fr/login.json');
      writeFileSync(file, withTitle(readFileSync(file, 'utf8'), 'Connexion (main)'));
      const history = await versions();
      expect(history.versions[0]).toMatchObject({ kind: 'outside', author: '', files: ['locales/fr-fr/login.json'] });
      expect(history.live).toBe(history.versions[0]?.number);
    });

    it('a second instance on the same database follows the first: its files become those of the newest version', async () => {
      const target = await engine.create();
      const [rootA, rootB] = [catalogueCopy(), catalogueCopy()];
      const a = await studioServer(engine, { target, root: rootA });
      const b = await studioServer(engine, { target, root: rootB });
      try {
        const [editorA, approverA, editorB] = [await a.as(PEOPLE.editor), await a.as(PEOPLE.approver), await b.as(PEOPLE.editor)];
        // Both start from the same files: one baseline.
        await b.call(editorB, { url: '/dev/studio/api/versions' });
        const created = (
          await a.call(editorA, {
            method: 'POST',
            url: '/dev/studio/api/changes',
            payload: { screenId: 'login', screen: loginScreen(a.root), locales: { 'en-us/login.json': withTitle(localeText(a.root, 'en-us'), 'From A') } },
          })
        ).json() as { change: ChangeDetail };
        // B sees A's draft and its review state (the database, not A's memory).
        await a.call(editorA, { method: 'POST', url: `/dev/studio/api/changes/${created.change.id}/review` });
        expect(((await b.call(editorB, { url: '/dev/studio/api/changes' })).json() as { changes: Array<{ state: string }> }).changes).toMatchObject([
          { state: 'review' },
        ]);
        const decide = (action: string) =>
          a.call(approverA, { method: 'POST', url: `/dev/studio/api/changes/${created.change.id}/${action}`, payload: { revision: 1 } });
        expect((await decide('approve')).statusCode).toBe(200);
        expect((await decide('publish')).statusCode).toBe(200);
        expect(JSON.parse(localeText(rootB, 'en-us'))).toMatchObject({ title: 'Sign in' });
        const seen = (await b.call(editorB, { url: '/dev/studio/api/versions' })).json() as VersionsAnswer;
        expect(seen.versions.map((v) => v.kind)).toEqual(['publish', 'baseline']);
        expect(seen.live).toBe(2);
        expect(JSON.parse(localeText(rootB, 'en-us'))).toMatchObject({ title: 'From A' });
      } finally {
        await a.close();
        await b.close();
        await target.dispose();
        for (const root of [rootA, rootB]) rmSync(root, { recursive: true, force: true });
      }
    });
  });
}
