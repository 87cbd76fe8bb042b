import { useEffect, useState, type ReactNode } from 'react';
import { Link, useLocation } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { useSite } from './site';
import { LanguageSwitch, ThemeSwitch } from './Switchers';
import { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from './frame-facts';
import { applyTheme, previewTheme, type Theme } from './themes';

export { CONTACT_URL, COPYRIGHT_FIRST_YEAR } from './frame-facts';

/** The page around every screen: logo, main region, footer; branding applied. */
export function Frame({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  const site = useSite();
  const location = useLocation();
  const marketing = location.pathname.startsWith('/mlogin');
  // A designer's preview theme (never in production) overrides the host's branding theme.
  const [preview, setPreview] = useState<Theme | undefined>(() => (site.production ? undefined : previewTheme(location.search)));
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
      <main className="fd-page fd-page--unavailable">
        <h1>{t('app.notAvailable.title')}</h1>
        <p>{t('app.notAvailable.text')}</p>
      </main>
    );
  }

  return (
    <div className="fd-page">
      <header className="fd-header">
        <Link to={marketing ? '/mlogin' : '/login'} className="fd-logo">
          {site.branding.loginLogo ? (
            <img src={site.branding.loginLogo} alt={site.branding.browserName ?? t('app.defaultTitle')} />
          ) : (
            <span className="fd-logo__text">{t('app.defaultTitle')}</span>
          )}
        </Link>
        {/* In the header, not the footer: branded sites hide the footer but keep the language choice. */}
        <div className="fd-toolbar">
          <LanguageSwitch />
          {preview ? <ThemeSwitch theme={preview} onChange={setPreview} /> : null}
        </div>
      </header>
      <main className="fd-main">{children}</main>
      {site.branded ? null : (
        <footer className="fd-footer">
          <span>{t('app.copyright', { from: COPYRIGHT_FIRST_YEAR, to: new Date().getFullYear() })}</span>
          <a href={CONTACT_URL} target="_blank" rel="noopener noreferrer">{t('app.contactUs')}</a>
        </footer>
      )}
    </div>
  );
}
