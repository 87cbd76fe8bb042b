import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import { appConfig } from '../api/app-config';
import { callOperation } from '../api/client';
import { startErrorReporting } from '../api/report';
import type { BotCheckConfig } from '../api/botcheck';
import { DEFAULT_THEME, isTheme, type Theme } from './themes';

/** Per-deployment facts: app config from the server and the branding of this host name. */
export interface Branding {
  isEnabled: boolean;
  loginLogo?: string;
  browserIcon?: string;
  theme: Theme;
  browserName?: string;
}

export interface Site {
  production: boolean;
  selfRegistrationEnabled: boolean;
  botCheck: BotCheckConfig;
  branding: Branding;
  /** A branded-domain site: hides the registration link and the footer. */
  branded: boolean;
}

export { DEFAULT_THEME };

/** Used when the config calls fail: the page still works, with the safe production choices. */
export const FALLBACK_SITE: Site = {
  production: true,
  selfRegistrationEnabled: false,
  botCheck: { provider: 'altcha' },
  branding: { isEnabled: true, theme: DEFAULT_THEME },
  branded: false,
};

export async function loadSite(): Promise<Site> {
  const [config, branding] = await Promise.all([appConfig(), callOperation('brandingGeneralData')]);
  const site: Site = { ...FALLBACK_SITE };
  if (config.ok && config.data) {
    const data = config.data;
    // Error reporting loads its library only when the deployment configured a DSN.
    const dsn = data.errorReporting?.dsn;
    if (typeof dsn === 'string' && /^https:\/\/[^\s]+$/.test(dsn)) void startErrorReporting({ dsn, environment: data.environment });
    site.production = data.environment === 'production';
    site.selfRegistrationEnabled = data.selfRegistrationEnabled === true;
    if (data.botCheck) site.botCheck = data.botCheck;
  }
  if (branding.ok && branding.data) {
    const data = branding.data;
    site.branding = {
      isEnabled: data.isEnabled !== false,
      // An unknown theme name would leave the page without colours: fall back to the default.
      theme: isTheme(data.theme) ? data.theme : DEFAULT_THEME,
      loginLogo: data.loginLogo,
      browserIcon: data.browserIcon,
      browserName: data.browserName,
    };
    site.branded = Boolean(data.browserName || data.loginLogo);
  }
  return site;
}

/**
 * The site facts, asked for once per page: main.tsx starts the calls at start-up (preloadSite), so the
 * first render has them; components read them through SiteProvider. A one-shot value needs no cache
 * library (swr stays in the lazily loaded platform modules, out of the first load).
 */
let loaded: Site | undefined;
let loading: Promise<Site> | undefined;
const listeners = new Set<() => void>();

export function preloadSite(): Promise<Site> {
  // Calls that throw (they should not: failures come back as results) leave the safe fallback.
  loading ??= loadSite()
    .catch(() => FALLBACK_SITE)
    .then((site) => {
      loaded = site;
      listeners.forEach((listener) => listener());
      return site;
    });
  return loading;
}

const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};

/** Exported for hosts that know the site without asking the server (the dev studio's preview, tests). */
export const SiteContext = createContext<Site>(FALLBACK_SITE);

export function useSite(): Site {
  return useContext(SiteContext);
}

export function SiteProvider({ children, fallback }: { children: ReactNode; fallback: ReactNode }) {
  const data = useSyncExternalStore(subscribe, () => loaded);
  useEffect(() => {
    void preloadSite();
  }, []);
  if (!data) return <>{fallback}</>;
  return <SiteContext.Provider value={data}>{children}</SiteContext.Provider>;
}
