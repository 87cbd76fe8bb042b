import { useState } from 'react';
import { useTranslation } from '../../../src/lib/i18n';
import { useSession } from '../../../src/platform';
import { VerifyMfaModal } from '../../../src/mfa';
import type { ContentProps } from '../content-props';
import { Alert } from '../../../src/ui';

/** Landing-page panel: 'Verify MFA' opens the Verify MFA modal over the user's methods; 'MFA verified' after success. */
export default function VerifyMfa(_props: ContentProps) {
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
