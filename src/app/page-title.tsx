import { useEffect } from 'react';
import { useTranslation } from '../lib/i18n';
import { useSite } from './site';

/** SPEC §2: the page title is '{page} | {default title}'; a branded site names itself. */
export function usePageTitle(pageKey: string): void {
  const { t } = useTranslation();
  const site = useSite();
  const page = t(pageKey);
  const brand = site.branding.browserName || t('app.defaultTitle');
  useEffect(() => {
    document.title = `${page} | ${brand}`;
  }, [page, brand]);
}
