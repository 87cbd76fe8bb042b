// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { startI18n } from '../../src/app/i18n';
import { EngineHostProvider, type EngineHost, type HostCallResult } from '../../src/engine';
import PasskeyReview from '../../widgets/content/passkeyReview/PasskeyReview';

/**
 * The passkeys after a password reset (widgets/content/passkeyReview, issue 35): 'Remove all' first,
 * each passkey with its Remove (named by its visible label, described by the passkey), removals
 * announced in a status line that takes focus, and no dead end when the grant is gone or a call fails.
 * The host's call is a fake answering as the server does.
 */
const MAC = { id: 7, createdAt: Date.UTC(2026, 10, 28, 9, 0), browser: 'Chrome', os: 'macOS', synced: true };
const OLD = { id: 3, createdAt: Date.UTC(2026, 10, 1, 9, 0), lastUsedAt: Date.UTC(2026, 10, 20, 9, 0), synced: false };

beforeAll(async () => {
  await startI18n('en-us');
});
afterEach(cleanup);

function renderWith(answers: HostCallResult[]) {
  const call = vi.fn(async () => answers.shift() ?? { code: 'NETWORK_ERROR', status: 0, data: undefined });
  // Only the call is used by this component.
  const host = { call } as unknown as EngineHost;
  render(
    <EngineHostProvider value={host}>
      <PasskeyReview />
    </EngineHostProvider>,
  );
  return call;
}

const ok = (passkeys: unknown[], removed?: number): HostCallResult => ({ code: 'SUCCESS', status: 200, data: { resultCode: 'SUCCESS', passkeys, removed } });

describe('passkeyReview', () => {
  it("lists the account's passkeys, 'Remove all' first; a removal is announced and takes focus", async () => {
    const call = renderWith([ok([MAC, OLD]), ok([OLD], 1)]);
    const list = await screen.findByRole('list', { name: 'Passkeys of your account' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.querySelector('strong')?.textContent)).toEqual(['Chrome on macOS', 'Passkey']);
    expect(items[0]?.textContent).toContain('Never used');
    expect(items[0]?.textContent).toContain('Synced to your devices');
    expect(items[1]?.textContent).toContain('Last used');
    const removeAll = screen.getByRole('button', { name: 'Remove all passkeys' });
    expect(removeAll.compareDocumentPosition(list) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    const remove = within(items[0]!).getByRole('button', { name: 'Remove' });
    expect(document.getElementById(remove.getAttribute('aria-describedby') ?? '')?.textContent).toBe('Chrome on macOS');
    await userEvent.click(remove);
    expect(call).toHaveBeenLastCalledWith('passkeyReviewRemove', { passkey: 7 }, {});
    const status = await screen.findByRole('status');
    await waitFor(() => expect(status.textContent).toBe('The passkey was removed. It no longer signs in.'));
    expect(document.activeElement).toBe(status);
    expect(within(screen.getByRole('list')).getAllByRole('listitem')).toHaveLength(1);
  });

  it("'Remove all' leaves a short line, not an empty box", async () => {
    const call = renderWith([ok([MAC, OLD]), ok([], 2)]);
    await userEvent.click(await screen.findByRole('button', { name: 'Remove all passkeys' }));
    expect(call).toHaveBeenLastCalledWith('passkeyReviewRemove', { all: true }, {});
    await screen.findByText('No passkey signs in to your account.');
    expect(screen.getByRole('status').textContent).toBe('All passkeys were removed. None of them signs in any more.');
    expect(screen.queryByRole('list')).toBeNull();
  });

  it('without the grant it says how to see the list again; a failed load offers Try again', async () => {
    renderWith([{ code: 'NOT_ALLOWED', status: 200, data: { resultCode: 'NOT_ALLOWED' } }]);
    await screen.findByText(/This list is no longer available here/);
    cleanup();
    const call = renderWith([{ code: 'NETWORK_ERROR', status: 0, data: undefined }, ok([MAC])]);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Your passkeys could not be loaded.');
    await userEvent.click(within(alert).getByRole('button', { name: 'Try again' }));
    await screen.findByRole('list', { name: 'Passkeys of your account' });
    expect(call).toHaveBeenCalledTimes(2);
  });
});
