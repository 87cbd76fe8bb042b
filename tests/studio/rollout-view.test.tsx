// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeDetail, ChangeRollout, ExperimentSummary, Person } from '../../catalogue/studio-contract';
import { ChangesView } from '../../studio/review/ChangesView';

/**
 * The rollout in a change's review (issue 38): an approver rolls an approved change of texts out with
 * a share, hosts and languages, naming the revision shown, then promotes or stops it; a change of more
 * than texts says why it is not offered; an editor is told that only an approver does it. The server
 * is a stub of /dev/studio/api (its behaviour: tests/server/rollout.test.ts).
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const RUNNING: ExperimentSummary = {
  id: 'change-7-1',
  screen: 'login',
  textKeys: ['passkey.signIn.or'],
  status: 'running',
  winner: null,
  variants: [
    { name: 'A', share: 80, texts: { 'passkey.signIn.or': {} } },
    { name: 'B', share: 20, texts: { 'passkey.signIn.or': { 'de-de': 'oder' } } },
  ],
  hosts: ['branded.localhost'],
  languages: ['de-de', 'fr-fr'],
  changeId: 7,
  changeRevision: 3,
};

function change(rollout: ChangeRollout): ChangeDetail {
  return {
    id: 7,
    screenId: 'login',
    note: 'Divider',
    author: 'editor@demo.test',
    state: 'approved',
    revision: 3,
    approvedBy: 'approver2@demo.test',
    createdAt: 1,
    updatedAt: 3,
    files: ['locales/de-de/passkey.json'],
    events: [],
    diff: [],
    pictures: [],
    texts: {},
    conflicts: [],
    rollout,
  };
}

/** The review of change 7 as `person` sees it; the calls it posts are kept. */
async function review(person: Person, first: ChangeDetail) {
  let current = first;
  const posts: Array<{ url: string; body: unknown }> = [];
  const json = (body: unknown) => new Response(JSON.stringify(body), { status: 200, headers: { 'content-type': 'application/json' } });
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      if (url.endsWith('/changes')) return json({ changes: [current] });
      if (url.endsWith('/changes/7')) return json({ change: current });
      posts.push({ url, body: JSON.parse(String(init?.body)) });
      current = url.endsWith('/rollout') ? change({ keys: ['passkey.signIn.or'], running: RUNNING }) : change({ keys: ['passkey.signIn.or'] });
      return json({ change: current });
    }),
  );
  render(
    <ChangesView person={person} selected={7} onSelect={() => undefined} textOf={() => undefined} onEdit={() => undefined} onPublished={() => undefined} />,
  );
  return { panel: await screen.findByTestId('studio-change'), posts };
}

const APPROVER: Person = { email: 'approver@demo.test', role: 'approver' };

describe('rolling a change out from its review', () => {
  it('an approver rolls it out with a share, hosts and languages naming the revision shown, then stops it', async () => {
    const { panel, posts } = await review(APPROVER, change({ keys: ['passkey.signIn.or'] }));
    const rollout = within(panel).getByRole('region', { name: 'Roll out before everyone' });
    expect(rollout.textContent).toContain('Texts it varies: passkey.signIn.or');
    await userEvent.clear(within(rollout).getByLabelText('Share of the visitors (%)'));
    await userEvent.type(within(rollout).getByLabelText('Share of the visitors (%)'), '20');
    await userEvent.type(within(rollout).getByLabelText('Only on these branded sites'), 'branded.localhost');
    await userEvent.type(within(rollout).getByLabelText('Only in these languages'), 'de-de, fr-fr');
    await userEvent.click(within(rollout).getByRole('button', { name: 'Roll out' }));
    expect((await within(rollout).findByRole('status')).textContent).toBe('Rolling out: 20 % of the visitors in the target see this change.');
    expect(posts).toEqual([
      { url: '/dev/studio/api/changes/7/rollout', body: { revision: 3, share: 20, hosts: ['branded.localhost'], languages: ['de-de', 'fr-fr'] } },
    ]);
    expect(rollout.textContent).toContain('Rolling out to 20 % of the visitors (branded.localhost, de-de, fr-fr)');
    // While it runs: promote or stop, not the plain publish.
    expect(within(panel).queryByRole('button', { name: 'Publish' })).toBeNull();
    expect(within(rollout).getByRole('button', { name: 'Promote to everyone' })).toBeTruthy();
    await userEvent.click(within(rollout).getByRole('button', { name: 'Stop and roll back' }));
    await within(panel).findByText('Rollout stopped: every visitor sees the live texts again.');
    expect(
      within(panel)
        .getAllByRole('status')
        .map((e) => e.textContent),
    ).toContain('Rollout stopped: every visitor sees the live texts again.');
    expect(posts[1]).toEqual({ url: '/dev/studio/api/changes/7/rollout/stop', body: { revision: 3 } });
  });

  it('a change of more than texts says why it is not offered; an editor is told only an approver rolls out', async () => {
    const { panel } = await review(APPROVER, change({ refused: { reason: 'notTextsOnly' }, keys: [] }));
    const rollout = within(panel).getByRole('region', { name: 'Roll out before everyone' });
    expect(rollout.textContent).toContain('This change cannot be rolled out to a share of the visitors: it changes more than texts');
    expect(within(rollout).queryByRole('button', { name: 'Roll out' })).toBeNull();
    expect(within(panel).getByRole('button', { name: 'Publish' })).toBeTruthy();
    cleanup();
    const editor = await review({ email: 'editor@demo.test', role: 'editor' }, change({ keys: ['passkey.signIn.or'] }));
    const forEditor = within(editor.panel).getByRole('region', { name: 'Roll out before everyone' });
    expect(forEditor.textContent).toContain('Only an approver rolls a change out, promotes or stops its rollout.');
    expect(within(forEditor).queryByRole('button', { name: 'Roll out' })).toBeNull();
  });
});
