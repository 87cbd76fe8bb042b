import { useTranslation } from '../../../src/lib/i18n';
import { helpCenterHost, useFeatureFlag, useHelpCenter } from '../../../src/platform';
import type { ContentProps } from '../content-props';

/** 'Help centre' link: opens the help centre signed in (single-sign-on form post) in a new tab. */
export default function HelpCenterLink(_props: ContentProps) {
  const { t } = useTranslation();
  const enabled = useFeatureFlag('helpCenter');
  const government = useFeatureFlag('governmentCloud');
  const { hosts, available, errorKey, pending, open } = useHelpCenter();
  if (!enabled || !hosts) return null;
  if (!available) return <p className="fd-block--muted">{t('platform.helpCenter.unavailable')}</p>;
  return (
    <p className="fd-platform-helpcenter">
      <a
        href={helpCenterHost(hosts, government)}
        target="_blank"
        rel="noopener noreferrer"
        aria-busy={pending || undefined}
        onClick={(event) => {
          event.preventDefault();
          open();
        }}
      >
        {t('platform.helpCenter.link')}
      </a>
      {errorKey ? (
        <span className="fd-field__error" role="alert">
          {' '}
          {t(errorKey)}
        </span>
      ) : null}
    </p>
  );
}
