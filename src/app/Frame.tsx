import { useContext, useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { Card, CardBrand, ProductMark } from '../ui';
import { MessageBar } from './messages';
import { Link, useLocation } from './router';
import { useSite } from './site';
import { LanguageSwitch, ThemeSwitch } from './Switchers';
import { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from './frame-facts';
import { SlotsContext } from './slots';
import { applyTheme, previewTheme, type Theme } from './themes';

export { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from './frame-facts';

/**
 * The page around every screen: the compact pickers, the messages, the screen's card (which shows
 * the brand this frame gives it: the site's logo, else the product mark), the footer; branding applied.
 */
export function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  const location = useLocation();
  const marketing = location.pathname.startsWith('/mlogin');
  const slots = useContext(SlotsContext);
  // A designer's preview theme (never in production) overrides the host's branding theme. Read after
  // the first render: that one is the server's page, which knows nothing of this tab's preview.
  const [preview, setPreview] = useState<Theme>();
  useEffect(() => {
    if (!site.production) setPreview(previewTheme(location.search));
    // The preview is chosen once per page (then kept for the tab); later navigation keeps it.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  const theme = preview ?? site.branding.theme;

  useEffect(() => {
    applyTheme(theme);
  }, [theme]);

  useEffect(() => {
    const icon = site.branding.browserIcon;
    if (icon) {
      let link = document.querySelector<HTMLLinkElement>('link[rel="icon"]');
      if (!link) {
        link = document.createElement('link');
        link.rel = 'icon';
        document.head.appendChild(link);
      }
      link.href = icon;
    }
  }, [site.branding]);

  if (!site.branding.isEnabled) {
    return (
      <div className="fd-page fd-page--unavailable">
        <main className="fd-main">
          <Card heading={t('app.notAvailable.title')} icon="info">
            <p>{t('app.notAvailable.text')}</p>
          </Card>
        </main>
      </div>
    );
  }

  const brand = (
    <Link to={marketing ? '/mlogin' : '/login'} className="fd-brand">
      {site.branding.loginLogo ? (
        <img className="fd-brand__logo" src={site.branding.loginLogo} alt={site.branding.browserName ?? t('app.defaultTitle')} />
      ) : (
        <ProductMark name={t('app.defaultTitle')} />
      )}
    </Link>
  );
  return (
    <CardBrand.Provider value={brand}>
      <div className="fd-page">
        {/* In the header, not the footer: branded sites hide the footer but keep the language choice. */}
        <header className="fd-header">
          <div className="fd-toolbar">
            <LanguageSwitch />
            {preview ? <ThemeSwitch theme={preview} onChange={setPreview} /> : null}
          </div>
        </header>
        <MessageBar />
        <main className="fd-main">{children}</main>
        {site.branded ? null : (
          <footer className="fd-footer">
            <span>{t('app.copyright', { from: COPYRIGHT_FIRST_YEAR, to: slots.year ?? new Date().getFullYear() })}</span>
            <a href={CONTACT_URL} target="_blank" rel="noopener noreferrer">
              {t('app.contactUs')}
            </a>
          </footer>
        )}
      </div>
    </CardBrand.Provider>
  );
}
