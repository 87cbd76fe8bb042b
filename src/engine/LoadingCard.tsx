import { useTranslation } from 'react-i18next';

/**
 * A screen's card while its chunk loads: its heading and 'Loading…'. The same card the server's
 * static page shows (server/spa-shell.ts), so the app taking over changes nothing on screen.
 */
export function LoadingCard({ title, layout = 'card' }: { title: string; layout?: 'card' | 'wide' }) {
  const { t } = useTranslation();
  return (
    <section className={`fd-screen fd-screen--${layout}`}>
      <h1 className="fd-screen__title">{t(title)}</h1>
      <p role="status" className="fd-loading">{t('common.loading')}</p>
    </section>
  );
}
