import { createContext, useContext, useEffect, useSyncExternalStore, type ReactNode } from 'react';
import type { ResponseOf } from '../api/client';
import type { BotCheckConfig } from '../api/botcheck';
import { DEFAULT_THEME, isTheme, type Theme } from './themes';
import { SAFE_FACTS } from '../host/host-base';
import { adoptAppConfig, appConfig } from '../api/app-config';

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
  ...SAFE_FACTS,
  botCheck: { provider: 'altcha' },
  branding: { isEnabled: true, theme: DEFAULT_THEME },
};

/** The two answers the site facts come from: GET /ws/app-config and GET /branding/generalData (the page carries them, else they are asked for). */
export interface SiteAnswers {
  config?: ResponseOf<'appConfig'>;
  branding?: ResponseOf<'brandingGeneralData'>;
}

/** The site facts of the two answers; a missing or failed one leaves the safe fallback. */
export function siteFrom({ config, branding }: SiteAnswers): Site {
  const site: Site = { ...FALLBACK_SITE };
  if (config) {
    site.production = config.environment === 'production';
    site.selfRegistrationEnabled = config.selfRegistrationEnabled === true;
    if (config.botCheck) site.botCheck = config.botCheck;
  }
  if (branding) {
    site.branding = {
      isEnabled: branding.isEnabled !== false,
      // An unknown theme name would leave the page without colours: fall back to the default.
      theme: isTheme(branding.theme) ? branding.theme : DEFAULT_THEME,
      loginLogo: branding.loginLogo,
      browserIcon: branding.browserIcon,
      browserName: branding.browserName,
    };
    site.branded = Boolean(branding.browserName || branding.loginLogo);
  }
  return site;
}

/** Error reporting loads its library only when the deployment configured a DSN. */
function reportErrors(config: SiteAnswers['config']): void {
  const dsn = config?.errorReporting?.dsn;
  if (typeof dsn === 'string' && /^https:\/\/[^\s]+$/.test(dsn))
    void import('../api/report').then((module) => module.startErrorReporting({ dsn, environment: config?.environment }));
}

export async function loadSite(): Promise<Site> {
  // Only a page without the server's answers asks (the operation client is not part of the first load).
  const [config, branding] = await Promise.all([appConfig(), import('../api/client').then(({ callOperation }) => callOperation('brandingGeneralData'))]);
  const answers = { config: config.ok ? config.data : undefined, branding: branding.ok ? branding.data : undefined };
  reportErrors(answers.config);
  return siteFrom(answers);
}

/**
 * The site facts, asked for once per page: main.tsx starts the calls at start-up (preloadSite), so the
 * first render has them; components read them through SiteProvider. A one-shot value needs no cache
 * library (swr stays in the lazily loaded platform modules, out of the first load).
 */
let loaded: Site | undefined;
let loading: Promise<Site> | undefined;
const listeners = new Set<() => void>();

/** The site facts from the answers the server put in the page: known at once, nothing asked (the page can hydrate at once). */
export function adoptSite(answers: SiteAnswers): Site {
  const { config } = answers;
  // Later readers of the app config (after a sign-in, the help centre) get this answer, not a call.
  if (config) adoptAppConfig(config);
  reportErrors(answers.config);
  const site = siteFrom(answers);
  loaded = site;
  loading = Promise.resolve(site);
  listeners.forEach((listener) => listener());
  return site;
}

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

const currentSite = () => loaded;
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
  // The same snapshot when hydrating: the server's page was rendered with these facts (server/spa/html.ts).
  const data = useSyncExternalStore(subscribe, currentSite, currentSite);
  useEffect(() => {
    void preloadSite();
  }, []);
  if (!data) return <>{fallback}</>;
  return <SiteContext.Provider value={data}>{children}</SiteContext.Provider>;
}
