import { useTranslation } from '../../../src/lib/i18n';
import { featureFlags, FEATURE_FLAGS, isSysadmin, useErrorReportingState, useSession } from '../../../src/platform';
import type { ContentProps } from '../content-props';
import { Alert } from '../../../src/ui';

/** Landing-page panel: the mapped user, site, feature flags and error-reporting state of the session. */
export default function SessionSummary(_props: ContentProps) {
  const { t } = useTranslation();
  const { session, error } = useSession();
  const reporting = useErrorReportingState();
  if (error)
    return (
      <Alert kind="error" role="alert" className="fd-form-error">
        {t('platform.session.error')}
      </Alert>
    );
  if (!session) return null;
  const flags = featureFlags(session.features);
  const on = FEATURE_FLAGS.filter((flag) => flags[flag]);
  return (
    <section className="fd-card fd-platform-session" aria-label={t('platform.session.title')}>
      <h2 className="fd-card__title">{t('platform.session.title')}</h2>
      <p className="fd-card__line" data-testid="platform-display-name">
        {t('platform.session.displayName', { name: session.user.displayName })}
      </p>
      <p className="fd-card__line">{t('platform.session.site', { site: session.userSite })}</p>
      {isSysadmin(session) ? <p className="fd-card__line">{t('platform.session.sysadmin')}</p> : null}
      <p className="fd-card__line">{on.length > 0 ? t('platform.session.features', { features: on.join(', ') }) : t('platform.session.noFeatures')}</p>
      {reporting === undefined ? null : (
        <p className="fd-card__line">{reporting ? t('platform.session.errorReportingOn') : t('platform.session.errorReportingOff')}</p>
      )}
    </section>
  );
}
