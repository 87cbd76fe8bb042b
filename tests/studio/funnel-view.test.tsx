// @vitest-environment jsdom
import { cleanup, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ExperimentSummary, FunnelReport } from '../../catalogue/studio-contract';
import { FunnelView } from '../../studio/funnel/FunnelView';

/**
 * The studio's funnel view (issue 38) over a stub of /dev/studio/api: each variant's visitors and
 * steps in a table (the bars are a picture beside it), the comparison in plain words, and the
 * screen's experiments with an approver's promote (control: an editor gets no buttons).
 */
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const step = (shown: number, submitted: number) => ({ step: 'offer', shown, submitted, left: shown - submitted, medianMs: 4200 });
const REPORT: FunnelReport = {
  screen: 'passkeyOffer',
  version: null,
  versions: ['v0'],
  since: 0,
  variants: [
    { variant: 'A', visitors: 120, completed: 48, steps: [step(120, 48)], fieldErrors: [], resultCodes: [{ code: 'SUCCESS', count: 48 }] },
    { variant: 'B', visitors: 120, completed: 66, steps: [step(120, 66)], fieldErrors: [{ field: 'email', keyword: 'format', count: 3 }], resultCodes: [] },
  ],
  comparison: { first: 'A', second: 'B', difference: 15, low: 2.5, high: 27.5, verdict: 'secondBetter' },
};
const EXPERIMENT: ExperimentSummary = {
  id: 'passkey-offer-wording',
  screen: 'passkeyOffer',
  textKeys: ['passkey.offer.text'],
  status: 'running',
  winner: null,
  variants: [
    { name: 'A', share: 50, texts: { 'passkey.offer.text': {} } },
    { name: 'B', share: 50, texts: { 'passkey.offer.text': { 'en-us': 'B' } } },
  ],
  hosts: [],
  languages: [],
  changeId: null,
  changeRevision: null,
};

function stub() {
  const posts: Array<{ url: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      if (init.method === 'POST') posts.push({ url, body: JSON.parse(String(init.body)) });
      const body = url.includes('/funnel?') ? REPORT : url.endsWith('/experiments') ? { experiments: [EXPERIMENT] } : { ok: true };
      return new Response(JSON.stringify(body), { status: 200, headers: { 'Content-Type': 'application/json' } });
    }),
  );
  return posts;
}

describe('the funnel view', () => {
  it("shows each variant's steps in a table and the verdict in words; an approver promotes the winner", async () => {
    const posts = stub();
    render(<FunnelView screens={['login', 'passkeyOffer']} canDecide />);
    await userEvent.selectOptions(screen.getByLabelText('Screen'), 'passkeyOffer');
    const b = await screen.findByRole('table', { name: 'Variant B: steps' });
    const row = within(b).getByRole('row', { name: /offer/ });
    expect(
      within(row)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual(['120', '66', '45 %', '54', '4.2 s']);
    expect(screen.getByRole('table', { name: 'Variant A: steps' })).toBeTruthy();
    expect(screen.getByText('B completes more: +15 points, 95 % sure it is between +2.5 and +27.5.')).toBeTruthy();
    expect(screen.getByText('email: format (3)')).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Promote B' }));
    expect(await screen.findByText('Variant B is promoted: every visitor now sees it.')).toBeTruthy();
    expect(posts).toEqual([{ url: '/dev/studio/api/experiments/passkey-offer-wording/promote', body: { winner: 'B' } }]);
  });

  it('gives an editor the numbers but no promote, stop or start', async () => {
    stub();
    render(<FunnelView screens={['passkeyOffer']} canDecide={false} />);
    expect(await screen.findByRole('table', { name: 'Variant A: steps' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Promote/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Start the experiment' })).toBeNull();
    expect(screen.getByText('Only an approver starts, promotes or stops an experiment.')).toBeTruthy();
  });
});
