import { useMemo, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router-dom';
import { EngineHostProvider, type EngineHost } from '../engine/host';
import { ScreenRuntime } from '../engine/ScreenRuntime';
import type { RouteSpec, ScreenEntry, ScreenModule } from '../engine/types';
import { operationCaller } from '../api/operation-caller';
import { reportFailure } from '../api/report';
import { widgets } from '../../widgets/registry';
import { contentComponent } from '../../widgets/content/registry';
import { PAGE_ACTION_NAMES } from '../engine/action-names';
import { EXPIRED_TRIAL_COOKIE, readCookie } from './cookies';
import { pickLanguage } from './i18n';
import { SUPPORTED_LANGUAGES } from './languages';
import { useMessages } from './messages';
import { usePageTitle } from './page-title';
import { sameSitePath, serverRedirectUrl } from './redirects';
import { useSite } from './site';

/** The named actions (./actions.ts), loaded when an outcome first names one: few answers need them. */
const actions = Object.fromEntries(
  PAGE_ACTION_NAMES.map((name) => [name, async (response: unknown) => (await import('./actions')).actions[name](response)]),
) as EngineHost['actions'];

/**
 * The app as the engine's host (src/engine/host.ts): react-router for navigation, the message bar,
 * the site facts, the post-sign-in redirects, error reporting, the widget and content registries and
 * the operation client with its bot check.
 */
export function AppEngineHost({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const site = useSite();
  const messages = useMessages();
  const host = useMemo<EngineHost>(
    () => ({
      showMessage: (message) => messages.show(message),
      navigate: (to, options) => navigate(to, options),
      Link,
      checkUrl: (raw) => serverRedirectUrl(raw, window.location.origin),
      leave: (url) => window.location.assign(url),
      authenticate: async ({ returnTo, userType }) => {
        // Only a successful sign-in needs it.
        const { goAfterSignIn } = await import('./after-sign-in');
        await goAfterSignIn(returnTo, userType);
      },
      report: reportFailure,
      useTitle: usePageTitle,
      flags: {
        branded: site.branded,
        production: site.production,
        selfRegistrationEnabled: site.selfRegistrationEnabled,
        expiredTrialCookie: readCookie(EXPIRED_TRIAL_COOKIE) !== undefined,
      },
      env: (query) => ({
        origin: window.location.origin,
        brandingHostname: window.location.hostname,
        returnTo: sameSitePath(query.return_to ?? query.redirect_uri, window.location.origin),
        // The visitor's browser language among the product's languages (SPEC §3), e.g. a form default.
        browserLanguage: pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language], SUPPORTED_LANGUAGES),
      }),
      widgets,
      content: contentComponent,
      actions,
      call: operationCaller(site.botCheck),
    }),
    [navigate, site, messages],
  );
  return <EngineHostProvider value={host}>{children}</EngineHostProvider>;
}

/** Where a screen of a route was opened, from the router. */
export function useScreenEntry(route?: Omit<RouteSpec, 'path'>): ScreenEntry {
  const { pathname, search, state } = useLocation();
  const params = useParams();
  return useMemo(() => ({ pathname, search, state, params, route }), [pathname, search, state, params, route]);
}

/** A loaded screen module as a route element (tests and hosts that have the module at hand). */
export function AppScreen({ module, route }: { module: ScreenModule; route?: Omit<RouteSpec, 'path'> }) {
  return <ScreenRuntime module={module} entry={useScreenEntry(route)} />;
}
