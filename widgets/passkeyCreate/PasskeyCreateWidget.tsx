import { useLayoutEffect, useRef, useState } from 'react';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from '../../src/lib/i18n';
import type { PublicKeyCredentialCreationOptionsJSON } from '@simplewebauthn/browser';
import { useEngineHost } from '../../src/engine';
import { Alert, Spinner } from '../../src/ui';
import { canMakePasskey } from '../passkey-browser';
import { screenApiOf } from '../screen-api';

type Status = 'idle' | 'prompting' | 'failed';

/**
 * Creating a passkey after signing in (screens/passkeyOffer.json), @simplewebauthn/browser in this
 * lazy chunk. ui:options.mode "check": on mount, submits the step with this field 'available' or
 * 'unavailable' (canMakePasskey), so the screen file decides what each means. Mode "create": when the
 * form is submitted, asks passkeyRegisterOptions for creation options, lets the browser create the
 * passkey, and puts its JSON into this field (a failure says so and cancels the submit).
 */
export default function PasskeyCreateWidget({ name, options, registry }: WidgetProps) {
  const { t } = useTranslation();
  const { call } = useEngineHost();
  const api = screenApiOf(registry);
  const apiRef = useRef(api);
  apiRef.current = api;
  const [status, setStatus] = useState<Status>('idle');
  const mode = options.mode === 'check' ? 'check' : 'create';

  useLayoutEffect(() => {
    if (mode !== 'check') return;
    let live = true;
    void canMakePasskey().then((yes) => {
      if (live) void apiRef.current?.submit({ [name]: yes ? 'available' : 'unavailable' });
    });
    return () => {
      live = false;
    };
  }, [mode, name]);

  // Registered synchronously after mount, so a click right after the step appears finds it.
  useLayoutEffect(() => {
    if (mode !== 'create') return;
    return apiRef.current?.beforeSubmit?.(async () => {
      setStatus('prompting');
      try {
        const answer = await call('passkeyRegisterOptions', {}, {});
        const creation = (answer.data as { options?: PublicKeyCredentialCreationOptionsJSON } | undefined)?.options;
        if (answer.code !== 'SUCCESS' || !creation) throw new Error(`passkeyRegisterOptions: ${answer.code}`);
        const { startRegistration } = await import('@simplewebauthn/browser');
        const credential = await startRegistration({ optionsJSON: creation });
        setStatus('idle');
        return { [name]: JSON.stringify(credential) };
      } catch {
        setStatus('failed');
        return undefined;
      }
    });
  }, [mode, name, call]);

  if (status === 'prompting')
    return (
      <p className="fd-status" role="status">
        <Spinner />
        {t('passkey.offer.prompt')}
      </p>
    );
  if (status === 'failed')
    return (
      <Alert kind="error" role="alert" className="fd-form-error">
        {t('passkey.offer.failed')}
      </Alert>
    );
  return null;
}
