import {
  Children,
  createContext,
  isValidElement,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useState,
  useSyncExternalStore,
  type AnchorHTMLAttributes,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
} from 'react';
import { matchRoute } from '../../catalogue/language/routes';

/**
 * The app's router: the location, navigation and the route table's pick, with react-router's
 * route syntax and matching (catalogue/language/routes.ts). The app only picks one screen per path
 * and moves between paths: no nested layouts, loaders or data APIs. react-router's declarative
 * router was about 11 kB brotli of the first load for that; this is well under 1 kB.
 *
 * Three routers give the same hooks: BrowserRouter (the page's history), MemoryRouter (tests and
 * the studio's preview) and StaticRouter (the build's prerendering, scripts/prerender.ts).
 */
export interface Location {
  pathname: string;
  search: string;
  hash: string;
  /** History state given with navigate (untrusted: it survives reloads). */
  state: unknown;
  /** Changes with every navigation, also to the same path. */
  key: string;
}

export interface NavigateOptions {
  replace?: boolean;
  state?: unknown;
}

interface RouterValue {
  location: Location;
  navigate(to: string, options?: NavigateOptions): void;
}

const RouterContext = createContext<RouterValue | null>(null);
const ParamsContext = createContext<Readonly<Record<string, string | undefined>>>({});

function useRouter(): RouterValue {
  const router = useContext(RouterContext);
  if (!router) throw new Error('No router: render inside <BrowserRouter>, <MemoryRouter> or <StaticRouter>');
  return router;
}

export const useLocation = (): Location => useRouter().location;
export const useNavigate = (): RouterValue['navigate'] => useRouter().navigate;
export const useParams = (): Readonly<Record<string, string | undefined>> => useContext(ParamsContext);

/** A path with its query and hash, relative to the current location. */
function locationOf(to: string, base: string, state: unknown, key: string): Location {
  const url = new URL(to, new URL(base, 'http://router.invalid'));
  return { pathname: url.pathname, search: url.search, hash: url.hash, state, key };
}

let keys = 0;
const nextKey = () => (keys += 1).toString(36);

/** What the page's history holds for an entry: the state given with navigate, and the entry's key. */
interface HistoryEntry {
  usr?: unknown;
  key?: string;
}

/** The page's location, read once per change (useSyncExternalStore needs a stable snapshot). */
const browserHistory = (() => {
  const listeners = new Set<() => void>();
  let current: Location | undefined;
  const read = (): Location => {
    const entry = (window.history.state ?? {}) as HistoryEntry;
    const { pathname, search, hash } = window.location;
    return { pathname, search, hash, state: entry.usr ?? null, key: entry.key ?? 'default' };
  };
  const notify = () => {
    current = read();
    listeners.forEach((listener) => listener());
  };
  return {
    get: () => (current ??= read()),
    subscribe(listener: () => void) {
      if (listeners.size === 0) window.addEventListener('popstate', notify);
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
        if (listeners.size === 0) window.removeEventListener('popstate', notify);
      };
    },
    navigate(to: string, options: NavigateOptions = {}) {
      const entry: HistoryEntry = { usr: options.state, key: nextKey() };
      const url = new URL(to, window.location.href);
      if (options.replace) window.history.replaceState(entry, '', url);
      else window.history.pushState(entry, '', url);
      notify();
    },
  };
})();

export function BrowserRouter({ children }: { children: ReactNode }) {
  const location = useSyncExternalStore(browserHistory.subscribe, browserHistory.get);
  const value = useMemo(() => ({ location, navigate: browserHistory.navigate }), [location]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** History in memory: tests and the studio's preview (nothing leaves the page). */
export function MemoryRouter({ initialEntries = ['/'], children }: { initialEntries?: string[]; children?: ReactNode }) {
  const [location, setLocation] = useState(() => locationOf(initialEntries[initialEntries.length - 1] ?? '/', '/', null, 'default'));
  const navigate = useCallback(
    (to: string, options: NavigateOptions = {}) => setLocation((from) => locationOf(to, from.pathname, options.state ?? null, nextKey())),
    [],
  );
  const value = useMemo(() => ({ location, navigate }), [location, navigate]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

/** One fixed location (the build's prerendering): navigation does nothing. */
export function StaticRouter({ location, children }: { location: string; children: ReactNode }) {
  const value = useMemo(() => ({ location: locationOf(location, '/', null, 'default'), navigate: () => undefined }), [location]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export interface RouteProps {
  /** A catalogue route pattern ('/activate/user/:invitationCode'), or '*' for any other path. */
  path: string;
  element: ReactNode;
}

/** A route of <Routes>: <Routes> reads its props, it renders nothing itself. */
export function Route(props: RouteProps): ReactElement | null {
  void props;
  return null;
}

/** The element of the first <Route> whose path matches the location, with its parameters for useParams. */
export function Routes({ children }: { children?: ReactNode }) {
  const { pathname } = useLocation();
  for (const child of Children.toArray(children)) {
    if (!isValidElement<RouteProps>(child) || child.type !== Route) continue;
    const params = child.props.path === '*' ? {} : matchRoute(child.props.path, pathname);
    if (params) return <ParamsContext.Provider value={params}>{child.props.element}</ParamsContext.Provider>;
  }
  return null;
}

/** Goes to `to` once rendered (the route table's fallback). */
export function Navigate({ to, replace }: { to: string; replace?: boolean }) {
  const navigate = useNavigate();
  useEffect(() => navigate(to, { replace }), [navigate, to, replace]);
  return null;
}

/** A link inside the app: a real <a href> (a new tab, a copied address and no script all work); a plain click navigates in place. */
export function Link({ to, onClick, children, ...anchor }: { to: string } & Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'>) {
  const navigate = useNavigate();
  const follow = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    const modified = event.metaKey || event.altKey || event.ctrlKey || event.shiftKey;
    if (event.defaultPrevented || event.button !== 0 || modified || (anchor.target && anchor.target !== '_self')) return;
    event.preventDefault();
    navigate(to);
  };
  return (
    <a {...anchor} href={to} onClick={follow}>
      {children}
    </a>
  );
}
