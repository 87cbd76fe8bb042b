import { useCallback, useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { callOperation } from '../api/client';
import { DUO_STATUS_TEXT, useDuoPrompt } from '../../widgets/duo/duo-prompt';
import { parsePublicKey } from '../../widgets/webauthn/WebAuthnWidget';
import { codeDigits } from '../../widgets/otp/code-digits';
import { Alert, Button, IconClose, Spinner } from '../ui';
import '../ui/modal.css';

/**
 * The Verify MFA modal (SPEC §2, §4 'MFA method switching in the modal', §7, §8), usable outside the
 * login page: a native modal <dialog> (focus stays inside, Escape and the close button call onCancel).
 * Switching a method clears the code, resets the retry state, hides the Duo warning and asks the
 * server (switchMfaSession, with returnTo); a failure restores the previous method ('Error switching
 * MFA Types'), INVALID_LOGIN_TOKEN shows 'Token expired' and closes. The verification goes through
 * `verify` (default: verifyMfaSession); SUCCESS calls onVerified.
 */
export type MfaMethod = 'U2F_TOKEN' | 'TOTP' | 'DUO' | 'SMSOTP';
export const MFA_METHODS: readonly MfaMethod[] = ['U2F_TOKEN', 'TOTP', 'DUO', 'SMSOTP'];

/** What the verification callback receives (SPEC §7): the current method and its code or credential. */
export interface MfaVerification {
  mfaType: MfaMethod;
  mfaCode?: string;
  publicKeyCredentialEncoded?: string;
}

export interface VerifyMfaModalProps {
  /** The user's methods (e.g. the session's mfaMethods); unknown names are ignored. */
  methods: readonly string[];
  /** The method shown first (default: the first of `methods`). */
  initialMethod?: string;
  /** Passed to the server when switching; default: the page's return_to query parameter. */
  returnTo?: string;
  /** Submits a verification; resolves to its result code. Default: POST verifyMfaSession. */
  verify?: (input: MfaVerification) => Promise<string>;
  onVerified: (input: MfaVerification) => void;
  onCancel: () => void;
  /** Shown after the modal closed itself (e.g. 'Token expired'); default: nothing. */
  onExpired?: (message: string) => void;
}

const isMethod = (value: unknown): value is MfaMethod => typeof value === 'string' && (MFA_METHODS as readonly string[]).includes(value);

export function returnToFromLocation(search = typeof window === 'undefined' ? '' : window.location.search): string | undefined {
  const value = new URLSearchParams(search).get('return_to');
  return value ? value.slice(0, 2048) : undefined;
}

async function verifyWithSession(input: MfaVerification): Promise<string> {
  return (await callOperation('verifyMfaSession', { ...input })).code;
}

/** base64url JSON credsRequest of the extended MFA response to its JSON text. */
function decodeCredsRequest(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 22000) return undefined;
  try {
    const b64 = value.replace(/-/g, '+').replace(/_/g, '/');
    const bytes = Uint8Array.from(atob(b64 + '='.repeat((4 - (b64.length % 4)) % 4)), (c) => c.charCodeAt(0));
    return new TextDecoder().decode(bytes);
  } catch {
    return undefined;
  }
}

type KeyStatus = 'idle' | 'prompting' | 'failed';

export function VerifyMfaModal({ methods, initialMethod, returnTo, verify = verifyWithSession, onVerified, onCancel, onExpired }: VerifyMfaModalProps) {
  const { t } = useTranslation();
  const available = methods.filter(isMethod);
  const first = isMethod(initialMethod) && available.includes(initialMethod) ? initialMethod : available[0];
  const [method, setMethod] = useState<MfaMethod | undefined>(first);
  const [code, setCode] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | undefined>();
  const [info, setInfo] = useState<string | undefined>();
  const [duo, setDuo] = useState<{ url?: string; channel?: string }>({});
  const [credsRequest, setCredsRequest] = useState<string | undefined>();
  const [keyStatus, setKeyStatus] = useState<KeyStatus>('idle');
  const dialog = useRef<HTMLDialogElement>(null);
  const ids = useId();
  const target = returnTo ?? returnToFromLocation();
  const closed = useRef(false);
  const methodRef = useRef(method);
  methodRef.current = method;

  const cancel = useCallback(() => {
    if (closed.current) return;
    closed.current = true;
    dialog.current?.close();
    onCancel();
  }, [onCancel]);

  const expire = useCallback(() => {
    if (closed.current) return;
    closed.current = true;
    dialog.current?.close();
    const message = t('mfa.errors.tokenExpired');
    onExpired?.(message);
    onCancel();
  }, [onCancel, onExpired, t]);

  const submit = useCallback(async (input: MfaVerification) => {
    setBusy(true);
    setError(undefined);
    const result = await verify(input).catch(() => 'NETWORK_ERROR');
    setBusy(false);
    if (closed.current) return;
    if (result === 'SUCCESS') {
      closed.current = true;
      dialog.current?.close();
      onVerified(input);
    } else if (result === 'INVALID_LOGIN_TOKEN') expire();
    else if (result === 'INVALID_MFA_CODE') setError(t('mfa.errors.incorrectCode'));
    else if (result === 'MALFORMED_CREDENTIAL') setError(t('mfa.errors.badKeyResponse'));
    else setError(t('mfa.errors.verification'));
  }, [verify, onVerified, expire, t]);

  const duoPrompt = useDuoPrompt((mfaCode) => void submit({ mfaType: 'DUO', mfaCode }));

  const promptKey = useCallback(async (request: string | undefined) => {
    const publicKey = parsePublicKey(request);
    if (!publicKey) return setKeyStatus('failed');
    setKeyStatus('prompting');
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const assertion = await startAuthentication({ optionsJSON: publicKey as unknown as PublicKeyCredentialRequestOptionsJSON });
      if (closed.current || methodRef.current !== 'U2F_TOKEN') return;
      setKeyStatus('idle');
      await submit({ mfaType: 'U2F_TOKEN', publicKeyCredentialEncoded: JSON.stringify(assertion) });
    } catch {
      if (!closed.current) setKeyStatus('failed');
    }
  }, [submit]);

  /** Asks the server for a method; returns false when it refused (the caller restores the previous one). */
  const switchTo = useCallback(async (next: MfaMethod): Promise<boolean> => {
    setBusy(true);
    const result = await callOperation('switchMfaSession', { mfaType: next, ...(target ? { returnTo: target } : {}) });
    setBusy(false);
    if (closed.current) return false;
    if (result.code === 'INVALID_LOGIN_TOKEN') {
      expire();
      return false;
    }
    if (result.code !== 'SUCCESS') {
      setError(next === 'SMSOTP' && result.ok && result.code !== 'MFA_NOT_CONFIGURED' ? t('mfa.errors.smsSend') : t('mfa.errors.switchingModal'));
      return false;
    }
    const data = result.data as { sendSms?: boolean; duoUrl?: string; duoChannelId?: string; credsRequest?: string };
    if (next === 'SMSOTP') {
      if (data.sendSms) setInfo(t('mfa.messages.codeSent'));
      else setError(t('mfa.errors.smsSend'));
    }
    if (next === 'DUO') setDuo({ url: data.duoUrl, channel: data.duoChannelId });
    if (next === 'U2F_TOKEN') {
      const json = decodeCredsRequest(data.credsRequest);
      setCredsRequest(json);
      void promptKey(json);
    }
    return true;
  }, [target, expire, promptKey, t]);

  // Open as a modal; the first method is asked for at once (SMS sends its code, the key prompts).
  const started = useRef(false);
  useEffect(() => {
    const el = dialog.current;
    if (el && !el.open) {
      if (typeof el.showModal === 'function') el.showModal();
      else el.setAttribute('open', '');
    }
    if (!started.current && first) {
      started.current = true;
      void switchTo(first);
    }
  }, [first, switchTo]);

  const change = async (next: MfaMethod) => {
    if (next === method || busy) return;
    const previous = method;
    // SPEC §4: clear the form, reset the retry state, hide the Duo warning, then ask the server.
    setCode('');
    setError(undefined);
    setInfo(undefined);
    setKeyStatus('idle');
    duoPrompt.reset();
    setDuo({});
    setMethod(next);
    const ok = await switchTo(next);
    if (!ok && !closed.current) setMethod(previous);
  };

  const duoWaiting = duoPrompt.status === 'waiting';
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    if (!method || busy) return;
    // While the Duo prompt is open, it is the way on: no second prompt.
    if (method === 'DUO') return duoWaiting ? undefined : duoPrompt.start(duo.url, duo.channel);
    if (!/^[0-9]{6}$/.test(code)) return setError(t('validation.mfaCode'));
    void submit({ mfaType: method, mfaCode: code });
  };

  const duoText = DUO_STATUS_TEXT[duoPrompt.status];
  const titleId = `${ids}-title`;
  return (
    <dialog
      ref={dialog}
      className="fd-modal"
      aria-modal="true"
      aria-labelledby={titleId}
      onCancel={(event) => {
        event.preventDefault();
        cancel();
      }}
    >
      <form className="fd-modal__body" onSubmit={onSubmit} noValidate>
        <div className="fd-modal__header">
          <h2 id={titleId} className="fd-modal__title">{t('mfa.modal.title')}</h2>
          <button type="button" className="fd-icon-button fd-modal__close" aria-label={t('mfa.modal.close')} onClick={cancel}>
            <IconClose />
          </button>
        </div>
        <div className="fd-field">
          <label htmlFor={`${ids}-method`} className="fd-field__label">{t('mfa.fields.method')}</label>
          <select
            id={`${ids}-method`}
            className="fd-input"
            value={method ?? ''}
            disabled={busy && keyStatus !== 'prompting'}
            onChange={(e) => { if (isMethod(e.target.value)) void change(e.target.value); }}
          >
            {available.map((m) => <option key={m} value={m}>{t(`mfa.methods.${m}`)}</option>)}
          </select>
        </div>
        {method ? <p className="fd-block--muted">{t(`mfa.hints.${method}`)}</p> : null}
        {method === 'TOTP' || method === 'SMSOTP' ? (
          <div className="fd-field">
            <label htmlFor={`${ids}-code`} className="fd-field__label">{t('mfa.fields.code')}</label>
            <input
              id={`${ids}-code`}
              className="fd-input fd-input--otp"
              type="text"
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              autoFocus
              value={code}
              aria-invalid={error ? true : undefined}
              onChange={(e) => setCode(codeDigits(e.target.value, 6))}
            />
          </div>
        ) : null}
        {method === 'DUO' && duoText ? (
          duoWaiting ? (
            <p className="fd-status" role="status"><Spinner />{t(duoText.key)}</p>
          ) : (
            <Alert kind={duoText.warning ? 'warning' : 'error'} role="alert" className={duoText.warning ? 'fd-form-warning' : 'fd-form-error'}>{t(duoText.key)}</Alert>
          )
        ) : null}
        {method === 'U2F_TOKEN' && keyStatus === 'prompting' ? <p className="fd-status" role="status"><Spinner />{t('mfa.webauthn.prompt')}</p> : null}
        {method === 'U2F_TOKEN' && keyStatus === 'failed' ? (
          <>
            <Alert kind="error" role="alert" className="fd-form-error">{t('mfa.webauthn.failed')}</Alert>
            <Button variant="secondary" onClick={() => void promptKey(credsRequest)}>{t('mfa.webauthn.retry')}</Button>
          </>
        ) : null}
        {info && !error ? <Alert kind="success" role="status">{info}</Alert> : null}
        {error ? <Alert kind="error" role="alert" className="fd-form-error">{error}</Alert> : null}
        <div className="fd-modal__actions">
          {method === 'DUO' ? (
            <Button type="submit" variant="primary" busy={duoWaiting} aria-disabled={busy || undefined}>
              {t('mfa.continue')}
            </Button>
          ) : method === 'U2F_TOKEN' ? null : (
            <Button type="submit" variant="primary" busy={busy}>{t('mfa.verify')}</Button>
          )}
          <Button variant="secondary" onClick={cancel}>{t('mfa.modal.cancel')}</Button>
        </div>
      </form>
    </dialog>
  );
}

export default VerifyMfaModal;
