import { useTranslation } from '../lib/i18n';
import { Card } from '../ui';

/**
 * A screen's card while its chunk loads: its heading and 'Loading…'. The same card the server's
 * static page shows (server/spa/shell.ts), so the app taking over changes nothing on screen.
 */
export function LoadingCard({ title, layout = 'card' }: { title: string; layout?: 'card' | 'wide' }) {
  const { t } = useTranslation();
  return (
    <Card heading={t(title)} layout={layout}>
      <p role="status" className="fd-loading">
        {t('common.loading')}
      </p>
      {/* A browser without JavaScript says what is missing (the stylesheet then hides 'Loading…'). */}
      <noscript>
        <p className="fd-noscript">{t('common.noscript')}</p>
      </noscript>
    </Card>
  );
}
