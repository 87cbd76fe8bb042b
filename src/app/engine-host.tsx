import { useMemo, type ReactNode } from 'react';
import { EngineHostProvider, ScreenRuntime, type EngineHost, type RouteSpec, type ScreenEntry, type ScreenModule } from '../engine';
import { contentComponent } from './content';
import { recordFunnel } from './funnel';
import { EXPIRED_TRIAL_COOKIE, readCookie } from './cookies';
import { hostBase, siteFlags } from '../host/host-base';
import { textsOf } from './i18n';
import { useMessages } from './messages';
import { usePageTitle } from './page-title';
import { Link, useLocation, useNavigate, useParams } from './router';
import { useSite } from './site';
import { appActions } from '../generated/vocabulary';

/** The named actions (./actions.ts), loaded when an outcome first names one: few answers need them. */
export const lazyActions: EngineHost['actions'] = Object.fromEntries(
  appActions.map((name) => [name, async (response: unknown) => (await import('./actions')).actions[name](response)]),
);

/**
 * The app as the engine's host (src/engine/host.ts): the app's router (./router.tsx) for navigation, the message bar,
 * the site facts, the post-sign-in redirects, error reporting, the widget and content registries and
 * the operation client with its bot check (./host-base.ts has what the app's hosts share).
 */
export function AppEngineHost({ children }: { children: ReactNode }) {
  const site = useSite();
  const routed = useRoutedHostParts();
  // The expired-trial cookie is read again at each navigation (this renders again with the location):
  // a sign-in sets it just before it goes to /trialExpired (the storeExpiredTrialSession action).
  useLocation();
  const expiredTrialCookie = readCookie(EXPIRED_TRIAL_COOKIE) !== undefined;
  const host = useMemo<EngineHost>(
    () =>
      hostBase({
        ...routed,
        authenticate: async (signIn) => {
          // Only a successful sign-in needs it.
          const { afterSignIn } = await import('./after-sign-in');
          await afterSignIn(signIn, routed.navigate);
        },
        useTitle: usePageTitle,
        flags: siteFlags(site, expiredTrialCookie),
        content: contentComponent,
        actions: lazyActions,
        botCheck: site.botCheck,
        // A form validates once the validation messages' texts are in (a page's first texts have them).
        textsReady: validationTexts,
        // While a call is in flight, the chunks of where it can lead (./prefetch.ts, loaded with the first call's).
        prefetch: (targets) => void import('./prefetch').then((found) => found.prefetch(targets), ignore),
        // The funnel's events: a queue, sent once the browser is idle (./funnel.ts).
        funnel: recordFunnel,
      }),
    [routed, site, expiredTrialCookie],
  );
  return <EngineHostProvider value={host}>{children}</EngineHostProvider>;
}

/** A prefetch that cannot start is forgotten: the chunk loads again, and fails as usual, where it is used. */
const ignore = () => undefined;

/** What a host inside the app's router and message bar gives the engine: messages, navigation, links. */
export function useRoutedHostParts(): Pick<EngineHost, 'showMessage' | 'navigate' | 'Link'> {
  const navigate = useNavigate();
  const messages = useMessages();
  return useMemo(() => ({ showMessage: (message) => messages.show(message), navigate: (to, options) => navigate(to, options), Link }), [navigate, messages]);
}

/** Where a screen of a route was opened, from the router (and the state it opens in, when not its first). */
export function useScreenEntry(route?: Omit<RouteSpec, 'path'>, start?: ScreenEntry['start']): ScreenEntry {
  const { pathname, search, state } = useLocation();
  const params = useParams();
  return useMemo(() => ({ pathname, search, state, params, route, ...(start ? { start } : {}) }), [pathname, search, state, params, route, start]);
}

/** A loaded screen module as a route element (tests and hosts that have the module at hand). */
export function AppScreen({ module, route }: { module: ScreenModule; route?: Omit<RouteSpec, 'path'> }) {
  return <ScreenRuntime module={module} entry={useScreenEntry(route)} />;
}

const validationTexts = () => textsOf('validation');
