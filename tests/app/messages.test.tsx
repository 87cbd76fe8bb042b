// @vitest-environment jsdom
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { MESSAGE_AUTO_HIDE_MS, MessageBar, MessageProvider, useMessages } from '../../src/app/messages';
import { startI18n } from '../../src/app/i18n';

/**
 * The message bar's time limit (SPEC §9, WCAG 2.2.1): a confirmation hides after 5 seconds, but not
 * while the visitor's pointer or focus is on it; once they leave it gets the full time again. An error
 * marked permanent stays.
 */
function Show({ kind, permanent }: { kind: 'success' | 'error'; permanent?: boolean }) {
  const messages = useMessages();
  useEffect(() => void messages.show({ key: 'mfa.messages.codeSent', kind, permanent }), [messages, kind, permanent]);
  return null;
}

function renderBar(kind: 'success' | 'error', permanent?: boolean) {
  render(
    <MessageProvider>
      <MessageBar />
      <Show kind={kind} permanent={permanent} />
    </MessageProvider>,
  );
  return () => screen.queryByText(/code/i);
}

describe('the message bar', () => {
  beforeAll(async () => {
    await startI18n('en-us');
  });
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('hides a confirmation after 5 seconds (the control: nobody is on it)', () => {
    vi.useFakeTimers();
    const message = renderBar('success');
    expect(message()).not.toBeNull();
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS));
    expect(message()).toBeNull();
  });

  it('keeps it while the pointer is on the bar, and gives it 5 seconds more once the pointer leaves', () => {
    vi.useFakeTimers();
    const message = renderBar('success');
    const bar = document.querySelector('.fd-messages');
    if (!bar) throw new Error('no message bar');
    fireEvent.pointerEnter(bar);
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS * 3));
    expect(message()).not.toBeNull();
    fireEvent.pointerLeave(bar);
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS - 1));
    expect(message()).not.toBeNull();
    act(() => void vi.advanceTimersByTime(1));
    expect(message()).toBeNull();
  });

  it('keeps it while focus is inside the bar (on its close button), though the pointer comes and goes', () => {
    vi.useFakeTimers();
    const message = renderBar('success');
    const bar = document.querySelector('.fd-messages');
    if (!bar) throw new Error('no message bar');
    act(() => screen.getByRole('button').focus());
    fireEvent.pointerEnter(bar);
    fireEvent.pointerLeave(bar);
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS * 2));
    expect(message()).not.toBeNull();
    act(() => screen.getByRole('button').blur());
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS));
    expect(message()).toBeNull();
  });

  it('keeps a permanent error until it is dismissed', () => {
    vi.useFakeTimers();
    const message = renderBar('error', true);
    act(() => void vi.advanceTimersByTime(MESSAGE_AUTO_HIDE_MS * 10));
    expect(message()).not.toBeNull();
    fireEvent.click(screen.getByRole('button'));
    expect(message()).toBeNull();
  });
});
