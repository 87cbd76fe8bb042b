import { useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { useSession } from '../platform';
import type { ScreenApi } from '../engine';
import { VerifyMfaModal } from './VerifyMfaModal';
import { Alert } from '../ui';

/**
 * Landing-page panel (the content component 'verifyMfa'): 'Verify MFA' opens the Verify MFA modal over
 * the user's methods; 'MFA verified' after success. The modal's own, so widgets/ needs nothing of
 * src/mfa: the app's content registry adds it (src/app/content.ts).
 */
export default function VerifyMfaPanel(_props: ScreenApi) {
  const { t } = useTranslation();
  const { session } = useSession();
  const [open, setOpen] = useState(false);
  const [verified, setVerified] = useState(false);
  const [expired, setExpired] = useState<string | undefined>();
  const methods = session?.mfaMethods ?? [];
  if (methods.length === 0) return null;
  return (
    <section className="fd-card fd-verify-mfa" aria-label={t('mfa.modal.title')}>
      {verified ? (
        <Alert kind="success" role="status" className="fd-status" data-testid="mfa-verified">
          {t('mfa.modal.verified')}
        </Alert>
      ) : null}
      {expired ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {expired}
        </Alert>
      ) : null}
      <button
        type="button"
        className="fd-button fd-button--secondary"
        onClick={() => {
          setVerified(false);
          setExpired(undefined);
          setOpen(true);
        }}
      >
        {t('mfa.modal.open')}
      </button>
      {open ? (
        <VerifyMfaModal
          methods={methods}
          onVerified={() => {
            setOpen(false);
            setVerified(true);
          }}
          onCancel={() => setOpen(false)}
          onExpired={setExpired}
        />
      ) : null}
    </section>
  );
}
