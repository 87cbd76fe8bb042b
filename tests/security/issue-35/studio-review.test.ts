/**
 * The attack of issue 35, finding 4, replayed against the real server (the studio's routes inside it,
 * on a copy of the catalogue, on the run's engine: SQLite, and PostgreSQL in the project `postgres`):
 * the approver opens revision X of a change, its author swaps the text (revision Y), and the
 * approver's Approve no longer lands on Y, nor is Y publishable; the control approves and publishes
 * the revision read. Beside it, a rollback is an approver's. Figures: docs/security.md.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChangeDetail, VersionsAnswer } from '../../../catalogue/studio-contract';
import { PEOPLE, studioServer, type StudioServer } from '../../server/studio-helpers';
import { body, figure, reportFigures } from '../attack-helpers';

type Who = { cookie: string };
let s: StudioServer;
let editor: Who;
let approver: Who;

const localeText = () => readFileSync(join(s.root, 'locales/en-us/login.json'), 'utf8');
const withTitle = (text: string, title: string) => JSON.stringify({ ...(JSON.parse(text) as object), title }, null, 2);
const edit = (title: string) => ({ screenId: 'login', locales: { 'en-us/login.json': withTitle(localeText(), title) } });
const change = async (who: Who, id: number) => (body(await s.call(who, { url: `/dev/studio/api/changes/${id}` })) as { change: ChangeDetail }).change;
const act = (who: Who, id: number, action: string, payload: InjectOptions['payload'] = {}) =>
  s.call(who, { method: 'POST', url: `/dev/studio/api/changes/${id}/${action}`, payload });
const versions = async () => body(await s.call(editor, { url: '/dev/studio/api/versions' })) as unknown as VersionsAnswer;

beforeAll(async () => {
  s = await studioServer();
  [editor, approver] = [await s.as(PEOPLE.editor), await s.as(PEOPLE.approver)];
});
afterAll(async () => {
  await s?.close();
});

describe('4. a studio approval is tied to what the approver saw', () => {
  it('the text swapped after the approver opened the change is neither approved nor publishable; the revision read is', async () => {
    // The author drafts "Reviewed X" and asks for a review; the approver opens it.
    const created = body(await s.call(editor, { method: 'POST', url: '/dev/studio/api/changes', payload: { ...edit('Reviewed X'), note: 'Title' } }));
    const { id } = (created as { change: ChangeDetail }).change;
    expect((await act(editor, id, 'review')).statusCode).toBe(200);
    const seen = await change(approver, id);
    expect(seen).toMatchObject({ state: 'review', revision: 1 });
    expect(seen.diff).toEqual([expect.objectContaining({ kind: 'text-changed', key: 'login.title', after: 'Reviewed X' })]);

    // The author swaps the text while the approver reads: a new revision, in review again.
    const swapped = await s.call(editor, { method: 'PUT', url: `/dev/studio/api/changes/${id}`, payload: edit('SWAPPED Y') });
    expect((body(swapped) as { change: ChangeDetail }).change).toMatchObject({ state: 'review', revision: 2 });

    // The approver's Approve names what the page showed: refused, and says why.
    const approval = await act(approver, id, 'approve', { revision: seen.revision });
    expect(approval.statusCode).toBe(409);
    expect(body(approval)).toMatchObject({ error: 'STALE_REVISION', revision: 2 });
    expect(String(body(approval).message)).toContain('revision 2 now, not revision 1');
    // The click of before (naming nothing) is refused too.
    expect(body(await act(approver, id, 'approve'))).toMatchObject({ error: 'REVISION_REQUIRED', revision: 2 });
    const after = await change(approver, id);
    expect(after).toMatchObject({ state: 'review', revision: 2 });
    expect(after.approvedBy).toBeUndefined();
    figure(
      4,
      'approval of what the approver read, after its author swapped the text',
      '"SWAPPED Y" approved',
      'refused (STALE_REVISION); in review at revision 2',
    );

    // "SWAPPED Y" is not publishable: not approved, whichever revision a publish names.
    expect(body(await act(editor, id, 'publish', { revision: 2 }))).toMatchObject({ error: 'WRONG_STATE' });
    expect(body(await act(approver, id, 'publish', { revision: 1 }))).toMatchObject({ error: 'STALE_REVISION' });
    expect(JSON.parse(localeText())).toMatchObject({ title: 'Sign in' });
    expect((await versions()).versions.map((v) => v.kind)).toEqual(['baseline']);
    figure(4, '"SWAPPED Y" publishable without a review of it', 'yes', 'no (WRONG_STATE)');

    // Control: the approver reads revision 2, approves it, and it is published.
    const reread = await change(approver, id);
    expect(reread.diff).toEqual([expect.objectContaining({ kind: 'text-changed', key: 'login.title', after: 'SWAPPED Y' })]);
    expect(body(await act(approver, id, 'approve', { revision: reread.revision }))).toMatchObject({ change: { state: 'approved', revision: 2 } });
    const published = body(await act(editor, id, 'publish', { revision: 2 }));
    expect(published).toMatchObject({ version: 2, change: { state: 'published', approvedBy: PEOPLE.approver } });
    expect(JSON.parse(localeText())).toMatchObject({ title: 'SWAPPED Y' });
    const trail = (published as { change: ChangeDetail }).change.events.map((e) => `${e.action}@${e.revision}`);
    expect(trail).toEqual(['created@1', 'review-requested@1', 'saved@2', 'approved@2', 'published@2']);
    figure(4, 'control: the revision the approver read, approved, then published', 'published', 'published (its events name revision 2)');
  });

  it("nobody approves their own change; a rollback is an approver's (control: the approver rolls back)", async () => {
    const own = (body(await s.call(approver, { method: 'POST', url: '/dev/studio/api/changes', payload: edit('Mine') })) as { change: ChangeDetail }).change;
    await act(approver, own.id, 'review');
    expect(body(await act(approver, own.id, 'approve', { revision: own.revision }))).toMatchObject({ error: 'OWN_CHANGE' });
    await act(approver, own.id, 'discard');

    const latest = (await versions()).versions[0]?.number ?? 0;
    const rollback = (who: Who) => s.call(who, { method: 'POST', url: '/dev/studio/api/versions/1/rollback', payload: { latest } });
    const byEditor = await rollback(editor);
    expect([byEditor.statusCode, body(byEditor).error]).toEqual([403, 'NOT_APPROVER']);
    expect(JSON.parse(localeText())).toMatchObject({ title: 'SWAPPED Y' });
    figure(4, 'rollback by an editor alone (what runs changes, unreviewed)', 'done', 'refused (NOT_APPROVER)');
    const byApprover = await rollback(approver);
    expect(body(byApprover)).toMatchObject({ version: latest + 1 });
    expect(JSON.parse(localeText())).toMatchObject({ title: 'Sign in' });
    expect((await versions()).versions[0]).toMatchObject({ kind: 'rollback', author: PEOPLE.approver, restores: 1 });
  });
});

reportFigures('3-issue-35-studio-review', 'The attack of issue 35, finding 4');
