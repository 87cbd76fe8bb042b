import { useCallback, useEffect, useRef, useState } from 'react';
import { buildRequest } from '../../src/api/client';
import { useEngineHost } from '../../src/engine';
import { validateResponse } from '../../src/generated/operations';

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

/**
 * The Duo prompt: opens duoUrl in a popup (on a click, so no popup blocker interferes), listens on the
 * realtime channel (server-sent events) for the mfaCode, checks every second whether the popup was
 * closed. Messages from the channel are validated against the duoChannel contract before use.
 */
export function useDuoPrompt(onCode: (code: string) => void) {
  const { checkUrl } = useEngineHost();
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
      const source = new EventSource(buildRequest('duoChannel', { channelId }).url);
      let finished = false;
      const poll = setInterval(() => {
        if (!finished && popup.closed) finish('closed');
      }, DUO_POPUP_POLL_MS);
      function finish(next: DuoStatus) {
        finished = true;
        clearInterval(poll);
        source.close();
        setStatus(next);
      }
      source.onmessage = async (event: MessageEvent<string>) => {
        let data: unknown;
        try {
          data = JSON.parse(event.data);
        } catch {
          data = undefined;
        }
        const valid = await validateResponse('duoChannel', data).catch(() => false);
        if (finished) return;
        if (!valid) return finish('failed');
        const message = data as { mfaCode?: string; error?: string };
        if (!popup.closed) popup.close();
        if (message.mfaCode) {
          finish('idle');
          onCodeRef.current(message.mfaCode);
        } else finish(message.error ? 'failed' : 'noCode');
      };
      // EventSource retries by itself; only a closed stream (e.g. 404 for an expired channel) is final.
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) finish('failed');
      };
      stop.current = () => {
        if (!finished) {
          finished = true;
          clearInterval(poll);
          source.close();
        }
      };
      setStatus('waiting');
    },
    [checkUrl],
  );

  return { status, start, reset };
}
