// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ChangeDetail, SessionAnswer } from '../../catalogue/studio-contract';
import { ChangesView } from '../../studio/review/ChangesView';
import { SignIn } from '../../studio/session/SignIn';

/**
 * The studio's pages for issue 35: the sign-in page leads to the app's sign-in and says why an
 * account is not admitted; an Approve of a revision the author has replaced since is refused in
 * words, announced, and the revision there is now is shown (control: approving it works). The
 * server is a stub of /dev/studio/api (its behaviour: tests/security/issue-35/studio-review.test.ts).
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const SIGN_IN = '/login?return_to=%2Fdev%2Fstudio';

describe('the sign-in page', () => {
  it("leads to the app's sign-in and says that demo mode admits the password alone", () => {
    render(<SignIn session={{ person: null, signIn: SIGN_IN, demo: true }} />);
    expect(screen.getByRole('heading', { name: 'Sign in to the screen studio' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe(SIGN_IN);
    expect(screen.getByText(/Demo mode: editor@demo.test and approver@demo.test sign in with the demo password alone/)).toBeTruthy();
  });

  it('tells a signed-in account why it is not admitted, and offers another sign-in (no demo note in production)', () => {
    const session: SessionAnswer = { person: null, signIn: SIGN_IN, demo: false, refused: { email: 'ed@acme.test', reason: 'SECOND_FACTOR_REQUIRED' } };
    render(<SignIn session={session} />);
    expect(screen.getByRole('alert').textContent).toContain('ed@acme.test signs in without a second factor, and the studio needs one.');
    expect(screen.getByRole('button', { name: 'Sign in as someone else' })).toBeTruthy();
    expect(screen.queryByText(/Demo mode/)).toBeNull();
  });
});

function change(revision: number, title: string): ChangeDetail {
  return {
    id: 7,
    screenId: 'login',
    note: 'Title',
    author: 'editor@demo.test',
    state: 'review',
    revision,
    createdAt: 1,
    updatedAt: revision,
    files: ['locales/en-us/login.json'],
    events: [{ at: 1, who: 'editor@demo.test', action: 'created', revision: 1 }],
    diff: [{ kind: 'text-changed', key: 'login.title', lang: 'en-us', before: 'Sign in', after: title, uses: [] }],
    pictures: [],
    texts: {},
    conflicts: [],
    rollout: { refused: { reason: 'fixedText', key: 'login.title' }, keys: [] },
  };
}

describe('a decision names the revision shown', () => {
  it('Approve of a revision replaced since is refused, announced, and the new revision shown (control: approving that one works)', async () => {
    // The author saved revision 2 ("SWAPPED Y") after the approver's page loaded revision 1 ("Reviewed X").
    let current = change(1, 'Reviewed X');
    const decisions: unknown[] = [];
    const json = (status: number, body: unknown) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string, init?: RequestInit) => {
        if (url.endsWith('/changes')) return json(200, { changes: [current] });
        if (url.endsWith('/changes/7')) return json(200, { change: current });
        const named = (JSON.parse(String(init?.body)) as { revision: number }).revision;
        decisions.push(named);
        if (decisions.length === 1) current = change(2, 'SWAPPED Y');
        if (named !== current.revision) return json(409, { error: 'STALE_REVISION', revision: current.revision, message: 'stale' });
        current = { ...current, state: 'approved', approvedBy: 'approver@demo.test' };
        return json(200, { change: current });
      }),
    );
    const person = { email: 'approver@demo.test', role: 'approver' } as const;
    render(
      <ChangesView person={person} selected={7} onSelect={() => undefined} textOf={() => undefined} onEdit={() => undefined} onPublished={() => undefined} />,
    );
    const panel = await screen.findByTestId('studio-change');
    expect(panel.textContent).toContain('revision 1');
    await userEvent.click(within(panel).getByRole('button', { name: 'Approve' }));

    expect((await within(panel).findByRole('alert')).textContent).toBe(
      'Its author saved this change again since you opened it (now revision 2). Read it again, then decide.',
    );
    await within(panel).findByText(/“SWAPPED Y”/);
    expect(panel.textContent).toContain('revision 2');
    expect(panel.getAttribute('data-state')).toBe('review');

    // Control: the revision now on the page is approved.
    await userEvent.click(within(panel).getByRole('button', { name: 'Approve' }));
    expect((await within(panel).findByRole('status')).textContent).toBe('Approved: it can be published now.');
    expect(decisions).toEqual([1, 2]);
  });
});
