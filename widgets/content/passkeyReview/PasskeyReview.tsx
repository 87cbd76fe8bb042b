import { useCallback, useEffect, useId, useRef, useState } from 'react';
import type { PasskeyReviewResponse } from '../../../src/generated/api-types';
import { useEngineHost } from '../../../src/engine';
import { useTranslation } from '../../../src/lib/i18n';
import { htmlLang } from '../../../src/lib/language-tags';
import { Alert, Button, Spinner } from '../../../src/ui';
import { sendPasskeySignals, signalsIn } from '../../passkey-browser';
import './passkey-review.css';

type Passkey = NonNullable<PasskeyReviewResponse['passkeys']>[number];

type View = { kind: 'loading' } | { kind: 'list'; passkeys: Passkey[] } | { kind: 'unavailable' } | { kind: 'failed' };

function isPasskey(p: unknown): p is Passkey {
  return (
    typeof p === 'object' &&
    p !== null &&
    'id' in p &&
    Number.isInteger(p.id) &&
    'createdAt' in p &&
    typeof p.createdAt === 'number' &&
    'synced' in p &&
    typeof p.synced === 'boolean'
  );
}

/** The passkeys of an answer (validated against the contract by the client already; anything else is none). */
function passkeysOf(data: unknown): Passkey[] {
  return typeof data === 'object' && data !== null && 'passkeys' in data && Array.isArray(data.passkeys) ? data.passkeys.filter(isPasskey) : [];
}

/**
 * The account's passkeys after a password reset (screens/passkeyOffer.json, step `review`; issue 35):
 * 'Remove all' first, then each passkey (the browser and system that added it, when it was added and
 * last used) with its own Remove. passkeyReview and passkeyReviewRemove are authorised by the reset's
 * grant for this browser; each answer also tells the browser's password manager which passkeys still
 * sign in (widgets/passkey-browser.ts). Every removal is announced (a status line that also takes focus, so the
 * keyboard is not left on a button that went); the screen's Continue is always there beside it.
 */
export default function PasskeyReview() {
  const { t } = useTranslation();
  const { call } = useEngineHost();
  const [view, setView] = useState<View>({ kind: 'loading' });
  const [busy, setBusy] = useState<number | 'all' | null>(null);
  const [news, setNews] = useState<{ key: string; kind: 'success' | 'error' } | null>(null);
  const statusRef = useRef<HTMLDivElement>(null);

  const answer = useCallback(
    (code: string, data: unknown): View =>
      code === 'SUCCESS' ? { kind: 'list', passkeys: passkeysOf(data) } : code === 'NOT_ALLOWED' ? { kind: 'unavailable' } : { kind: 'failed' },
    [],
  );

  const load = useCallback(async () => {
    setView({ kind: 'loading' });
    const result = await call('passkeyReview', {}, {});
    setView(answer(result.code, result.data));
    // The list is the truth: this browser's password manager hides the passkeys that are gone (issue 37).
    void sendPasskeySignals(signalsIn(result.data));
  }, [call, answer]);

  useEffect(() => {
    void load();
  }, [load]);

  useEffect(() => {
    if (news) statusRef.current?.focus();
  }, [news]);

  const remove = async (which: number | 'all') => {
    if (busy !== null) return;
    setBusy(which);
    const result = await call('passkeyReviewRemove', which === 'all' ? { all: true } : { passkey: which }, {});
    setBusy(null);
    void sendPasskeySignals(signalsIn(result.data));
    const next = answer(result.code, result.data);
    if (next.kind === 'failed') return setNews({ key: 'passkey.review.removeFailed', kind: 'error' });
    setView(next);
    setNews(next.kind === 'list' ? { key: which === 'all' ? 'passkey.review.removedAll' : 'passkey.review.removed', kind: 'success' } : null);
  };

  return (
    <div className="fd-passkey-review">
      {/* Always in the page, so what is put in it is announced. */}
      <div ref={statusRef} tabIndex={-1} role="status" className={`fd-passkey-review__status${news ? '' : ' fd-passkey-review__status--empty'}`}>
        {news ? <Alert kind={news.kind}>{t(news.key)}</Alert> : null}
      </div>
      {view.kind === 'loading' ? (
        <p className="fd-passkey-review__loading">
          <Spinner /> {t('passkey.review.loading')}
        </p>
      ) : null}
      {view.kind === 'unavailable' ? <Alert kind="info">{t('passkey.review.unavailable')}</Alert> : null}
      {view.kind === 'failed' ? (
        <Alert kind="error" role="alert">
          {t('passkey.review.failed')}{' '}
          <Button variant="link" onClick={() => void load()}>
            {t('passkey.review.retry')}
          </Button>
        </Alert>
      ) : null}
      {view.kind === 'list' && view.passkeys.length === 0 ? <p className="fd-passkey-review__none">{t('passkey.review.none')}</p> : null}
      {view.kind === 'list' && view.passkeys.length > 0 ? <PasskeyList passkeys={view.passkeys} busy={busy} onRemove={(which) => void remove(which)} /> : null}
    </div>
  );
}

interface PasskeyListProps {
  passkeys: Passkey[];
  /** The removal under way (one passkey's id, or all), if any. */
  busy: number | 'all' | null;
  onRemove(which: number | 'all'): void;
}

/** 'Remove all' first, then each passkey with what tells it apart and its own Remove. */
function PasskeyList({ passkeys, busy, onRemove }: PasskeyListProps) {
  const { t, i18n } = useTranslation();
  const listId = useId();
  const date = (ms: number) => new Intl.DateTimeFormat(htmlLang(i18n.language || 'en-us'), { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(ms));
  const device = (p: Passkey) =>
    p.browser && p.os ? t('passkey.review.device', { browser: p.browser, os: p.os }) : (p.browser ?? p.os ?? t('passkey.review.unknownDevice'));
  return (
    <>
      <Button variant="secondary" block busy={busy === 'all'} onClick={() => onRemove('all')}>
        {t('passkey.review.removeAll')}
      </Button>
      <ul className="fd-passkey-review__list" aria-label={t('passkey.review.listLabel')}>
        {passkeys.map((p) => (
          <li key={p.id} className="fd-passkey-review__item">
            <div className="fd-passkey-review__facts">
              <strong id={`${listId}-${p.id}`}>{device(p)}</strong>
              <span>{t('passkey.review.added', { date: date(p.createdAt) })}</span>
              <span>{p.lastUsedAt === undefined ? t('passkey.review.neverUsed') : t('passkey.review.lastUsed', { date: date(p.lastUsedAt) })}</span>
              {p.synced ? <span>{t('passkey.review.synced')}</span> : null}
            </div>
            <Button variant="tertiary" busy={busy === p.id} aria-describedby={`${listId}-${p.id}`} onClick={() => onRemove(p.id)}>
              {t('passkey.review.remove')}
            </Button>
          </li>
        ))}
      </ul>
    </>
  );
}
