import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from '../../../src/lib/i18n';
// Statically: this part is a lazy chunk of its own, so WebAuthn's chunk downloads beside it (one round trip less).
import { browserSupportsWebAuthn, browserSupportsWebAuthnAutofill, startAuthentication, WebAuthnAbortService } from '@simplewebauthn/browser';
import type { PublicKeyCredentialRequestOptionsJSON } from '@simplewebauthn/browser';
import { useEngineHost } from '../../../src/engine';
import { Alert, Button } from '../../../src/ui';
import { looksLikeEmail } from '../../../catalogue/language/patterns';
import type { ContentProps } from '../content-props';
import { IconPasskey } from './passkey-icon';

/** The form field the assertion is submitted as: the screen's submit with `"when": "/passkey"` sends it (screens/login.json). */
export const PASSKEY_FIELD = 'passkey';

type Status = 'idle' | 'prompting' | 'failed';

/**
 * Passkey sign-in on /login, an optional part (src/engine/lazy-part.tsx): loaded once the page is idle
 * or a field is focused (so its options are never asked during hydration), the form works without it. Where the browser offers passkeys in its autofill list (the
 * email field says `autocomplete="username webauthn"`), a conditional request starts at once; the
 * button 'Sign in with a passkey' asks with the browser's own dialog (a typed email also lists that
 * account's passkeys that are not discoverable). The assertion goes through the screen's submit, so
 * its answer routes like a password sign-in. Options come from passkeyLoginOptions.
 */
export default function PasskeySignIn(api: ContentProps) {
  const { t } = useTranslation();
  const { call } = useEngineHost();
  const [supported, setSupported] = useState(false);
  const [status, setStatus] = useState<Status>('idle');
  const apiRef = useRef(api);
  apiRef.current = api;
  const mounted = useRef(true);

  /** One ceremony: options from the server, the browser's request, then the screen's submit. */
  const ceremony = useCallback(
    async (autofill: boolean): Promise<void> => {
      const email = autofill ? undefined : String(apiRef.current.data().email ?? '').trim();
      const answer = await call('passkeyLoginOptions', looksLikeEmail(email) ? { email } : {}, {});
      const options = (answer.data as { options?: PublicKeyCredentialRequestOptionsJSON } | undefined)?.options;
      if (answer.code !== 'SUCCESS' || !options) throw new Error(`passkeyLoginOptions: ${answer.code}`);
      const assertion = await startAuthentication({ optionsJSON: options, useBrowserAutofill: autofill });
      if (!mounted.current) return;
      setStatus('idle');
      await apiRef.current.submit({ [PASSKEY_FIELD]: JSON.stringify(assertion) });
    },
    [call],
  );

  /** The autofill request, again after each finished attempt (a refused passkey leaves the list on offer). */
  const offerInAutofill = useCallback(async () => {
    if (!mounted.current || !(await browserSupportsWebAuthnAutofill())) return;
    try {
      await ceremony(true);
    } catch {
      // Cancelled by the button's request, or by leaving the page: nothing to say.
      return;
    }
    if (mounted.current) setTimeout(() => void offerInAutofill(), 0);
  }, [ceremony]);

  useEffect(() => {
    mounted.current = true;
    if (browserSupportsWebAuthn()) {
      setSupported(true);
      void offerInAutofill();
    }
    return () => {
      mounted.current = false;
      // A pending autofill request must not outlive the page (the next screen may start its own).
      WebAuthnAbortService.cancelCeremony();
    };
  }, [offerInAutofill]);

  const withButton = async () => {
    setStatus('prompting');
    try {
      await ceremony(false);
    } catch {
      if (mounted.current) setStatus('failed');
      return;
    }
    if (mounted.current) void offerInAutofill();
  };

  if (!supported) return null;
  return (
    <div className="fd-passkey-sign-in">
      <p className="fd-passkey-sign-in__or">{t('passkey.signIn.or')}</p>
      {status === 'failed' ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t('passkey.signIn.failed')}
        </Alert>
      ) : null}
      <Button
        variant="secondary"
        block
        busy={status === 'prompting'}
        aria-disabled={api.busy || undefined}
        onClick={() => void (api.busy ? undefined : withButton())}
      >
        <IconPasskey />
        {t('passkey.signIn.button')}
      </Button>
    </div>
  );
}
