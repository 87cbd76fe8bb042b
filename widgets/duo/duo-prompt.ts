import { useCallback, useEffect, useRef, useState } from 'react';
import { useEngineHost } from '../../src/engine';

/** SPEC §4: while the Duo popup is open, check this often whether it was closed. */
export const DUO_POPUP_POLL_MS = 1000;

export type DuoStatus = 'idle' | 'waiting' | 'closed' | 'failed' | 'noUrl' | 'noChannel' | 'noCode';

/** i18n key of each status that shows a message (mfa.json), and whether it is a warning. */
export const DUO_STATUS_TEXT: Partial<Record<DuoStatus, { key: string; warning?: boolean }>> = {
  waiting: { key: 'mfa.duo.waiting' },
  closed: { key: 'mfa.duo.popupClosed', warning: true },
  failed: { key: 'mfa.duo.failed' },
  noUrl: { key: 'mfa.duo.noUrl' },
  noChannel: { key: 'mfa.duo.noChannel' },
  noCode: { key: 'mfa.duo.noCode' },
};

const CHANNEL_ID = /^[A-Za-z0-9_-]{1,128}$/;
/** A dropped channel is opened again after this long (what its server-sent events ask for: retry 2000). */
const RECONNECT_MS = 2000;

/**
 * The Duo prompt: opens duoUrl in a popup (on a click, so no popup blocker interferes), waits on the
 * realtime channel (the duoChannel operation, called through the host like any call: its answer is
 * the channel's first message, validated against the contract) for the mfaCode, and checks every
 * second whether the popup was closed. A dropped connection is opened again; an unknown or expired
 * channel (404) is final.
 */
export function useDuoPrompt(onCode: (code: string) => void) {
  const { checkUrl, call } = useEngineHost();
  const [status, setStatus] = useState<DuoStatus>('idle');
  const stop = useRef<() => void>(() => {});
  const onCodeRef = useRef(onCode);
  onCodeRef.current = onCode;

  useEffect(() => () => stop.current(), []);

  const reset = useCallback(() => {
    stop.current();
    setStatus('idle');
  }, []);

  const start = useCallback(
    (duoUrl: unknown, channelId: unknown) => {
      stop.current();
      const url = checkUrl(duoUrl);
      if (!url) return setStatus('noUrl');
      if (typeof channelId !== 'string' || !CHANNEL_ID.test(channelId)) return setStatus('noChannel');
      const popup = window.open(url, 'fd-duo', 'popup,width=520,height=640');
      if (!popup) return setStatus('failed');
      const channel = new AbortController();
      let finished = false;
      const poll = setInterval(() => {
        if (!finished && popup.closed) finish('closed');
      }, DUO_POPUP_POLL_MS);
      function finish(next: DuoStatus) {
        finished = true;
        clearInterval(poll);
        channel.abort();
        setStatus(next);
      }
      void call('duoChannel', { channelId }, { retryEveryMs: RECONNECT_MS, signal: channel.signal }).then((result) => {
        if (finished) return;
        if (result.code !== 'SUCCESS') return finish('failed');
        const message = result.data as { mfaCode?: string; error?: string };
        if (!popup.closed) popup.close();
        if (message.mfaCode) {
          finish('idle');
          onCodeRef.current(message.mfaCode);
        } else finish(message.error ? 'failed' : 'noCode');
      });
      stop.current = () => {
        if (!finished) {
          finished = true;
          clearInterval(poll);
          channel.abort();
        }
      };
      setStatus('waiting');
    },
    [checkUrl, call],
  );

  return { status, start, reset };
}
