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
 * The same hooks under a Router of the page's history (BrowserRouter), of one fixed place (the build's
 * prerendering: staticHistory) or of memory (MemoryRouter: tests and the studio's preview).
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
  if (!router) throw new Error('No router: render inside a <Router>, <BrowserRouter> or <MemoryRouter>');
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

/** Where the location comes from and where navigation goes: the page's history, or one fixed place. */
export interface History {
  get(): Location;
  subscribe(listener: () => void): () => void;
  navigate(to: string, options?: NavigateOptions): void;
}

/** The page's history, read once per change (useSyncExternalStore needs a stable snapshot). */
export const browserHistory: History = (() => {
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

/** One fixed location (the build's prerendering, scripts/prerender.ts): navigation does nothing. */
export function staticHistory(path: string): History {
  const location = locationOf(path, '/', null, 'default');
  return { get: () => location, subscribe: () => () => undefined, navigate: () => undefined };
}

/**
 * The router of a page: the same component whether its history is the browser's or the build's
 * fixed one, so the prerendered page and the page that hydrates it are the same tree.
 */
export function Router({ history, children }: { history: History; children?: ReactNode }) {
  const location = useSyncExternalStore(history.subscribe, history.get, history.get);
  const value = useMemo(() => ({ location, navigate: history.navigate }), [location, history]);
  return <RouterContext.Provider value={value}>{children}</RouterContext.Provider>;
}

export function BrowserRouter({ children }: { children?: ReactNode }) {
  return <Router history={browserHistory}>{children}</Router>;
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
