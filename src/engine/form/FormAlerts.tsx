import { useTranslation } from '../../lib/i18n';
import { Alert } from '../../ui';
import type { ResolvedText } from '../../../catalogue/language/scope';

/** The step's form-level error and warning (a result's message), each announced as an alert. */
export function FormAlerts({ error, warning }: { error?: ResolvedText; warning?: ResolvedText }) {
  const { t } = useTranslation();
  return (
    <>
      {error ? (
        <Alert kind="error" role="alert" className="fd-form-error">
          {t(error.key, error.values)}
        </Alert>
      ) : null}
      {warning ? (
        <Alert kind="warning" role="alert" className="fd-form-warning">
          {t(warning.key, warning.values)}
        </Alert>
      ) : null}
    </>
  );
}
