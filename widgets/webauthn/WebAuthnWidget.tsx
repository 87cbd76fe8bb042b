import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { Alert, Button, Spinner } from '../../src/ui';
import { decodeBase64url } from '../../src/engine';
import { screenApiOf } from '../screen-api';

type Status = 'idle' | 'prompting' | 'failed' | 'noKeys' | 'badOptions';

/** Untrusted JSON text {publicKey:{challenge, ...}} (state parameter or server) to its publicKey, or undefined. */
export function parsePublicKey(raw: unknown): Record<string, unknown> | undefined {
  if (typeof raw !== 'string' || raw.length > 16384) return undefined;
  try {
    const parsed: unknown = JSON.parse(raw);
    const publicKey = parsed !== null && typeof parsed === 'object' ? (parsed as { publicKey?: unknown }).publicKey : undefined;
    if (publicKey === null || typeof publicKey !== 'object' || typeof (publicKey as { challenge?: unknown }).challenge !== 'string') return undefined;
    const allow = (publicKey as { allowCredentials?: unknown }).allowCredentials;
    if (
      allow !== undefined &&
      !(Array.isArray(allow) && allow.every((c) => c !== null && typeof c === 'object' && typeof (c as { id?: unknown }).id === 'string'))
    )
      return undefined;
    return publicKey as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** What the widget says: the prompt, a failure, options that cannot be read, no key to use; with `retry`, a failure offers Retry. */
function WebAuthnStatus({ status, retry }: { status: Status; retry?: () => void }) {
  const { t } = useTranslation();
  return (
    <div className="fd-webauthn">
      {status === 'prompting' ? (
        <p className="fd-status" role="status">
          <Spinner />
          {t('mfa.webauthn.prompt')}
        </p>
      ) : null}
      {status === 'failed' ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t('mfa.webauthn.failed')}
        </Alert>
      ) : null}
      {status === 'badOptions' ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t('mfa.webauthn.badOptions')}
        </Alert>
      ) : null}
      {status === 'noKeys' ? (
        <Alert kind="warning" role="alert" className="fd-form-warning">
          {t('login.errors.noHardwareKeys')}
        </Alert>
      ) : null}
      {retry && status !== 'prompting' && status !== 'idle' ? (
        <Button variant="secondary" block onClick={retry}>
          {t('mfa.webauthn.retry')}
        </Button>
      ) : null}
    </div>
  );
}

/**
 * A hardware security key (WebAuthn, @simplewebauthn/browser in this lazy chunk).
 * ui:options.mode "authenticate": the prompt opens at once with the request options of the context
 * value ui:options.optionsFrom and the assertion is submitted (as JSON text in this field); a failure
 * offers Retry. Mode "register": when the form is submitted (after validation), the key is registered
 * with the creation options of ui:options.optionsFrom and the credential goes into this field.
 * ui:options.optionsEncoding "base64url": the context value is that JSON text base64url-encoded (the
 * Verify MFA modal's credsRequest).
 */
export default function WebAuthnWidget({ name, options, registry }: WidgetProps) {
  const api = screenApiOf(registry);
  const [status, setStatus] = useState<Status>('idle');
  const mode = options.mode === 'register' ? 'register' : 'authenticate';
  const optionsFrom = typeof options.optionsFrom === 'string' ? options.optionsFrom : mode === 'register' ? 'createCredentialsJson' : 'credsRequest';
  const base64url = options.optionsEncoding === 'base64url';
  const apiRef = useRef(api);
  apiRef.current = api;
  /** The options JSON text of the context value. */
  const optionsText = useCallback((raw: unknown) => (base64url ? decodeBase64url(raw, 22000) : raw), [base64url]);

  const authenticate = useCallback(async () => {
    const publicKey = parsePublicKey(optionsText(apiRef.current?.ctx[optionsFrom]));
    if (!publicKey) return setStatus('badOptions');
    if (Array.isArray(publicKey.allowCredentials) && publicKey.allowCredentials.length === 0) return setStatus('noKeys');
    setStatus('prompting');
    try {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const assertion = await startAuthentication({ optionsJSON: publicKey as unknown as PublicKeyCredentialRequestOptionsJSON });
      setStatus('idle');
      await apiRef.current?.submit({ [name]: JSON.stringify(assertion) });
    } catch {
      setStatus('failed');
    }
  }, [name, optionsFrom, optionsText]);

  const started = useRef(false);
  useEffect(() => {
    if (mode !== 'authenticate' || started.current) return;
    started.current = true;
    void authenticate();
  }, [mode, authenticate]);

  const register = useCallback(async (): Promise<Record<string, unknown> | undefined> => {
    const publicKey = parsePublicKey(optionsText(apiRef.current?.ctx[optionsFrom]));
    if (!publicKey) {
      setStatus('badOptions');
      return undefined;
    }
    setStatus('prompting');
    try {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const credential = await startRegistration({ optionsJSON: publicKey as unknown as PublicKeyCredentialCreationOptionsJSON });
      setStatus('idle');
      return { [name]: credential };
    } catch {
      setStatus('failed');
      return undefined;
    }
  }, [name, optionsFrom, optionsText]);
  const registerRef = useRef(register);
  registerRef.current = register;

  // Registered once, synchronously after mount, so a submit right after the step appears finds it.
  useLayoutEffect(() => {
    if (mode !== 'register') return;
    return apiRef.current?.beforeSubmit?.(() => registerRef.current());
  }, [mode]);

  return <WebAuthnStatus status={status} retry={mode === 'authenticate' ? () => void authenticate() : undefined} />;
}
