import { useContext, type ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { routes, type CatalogueRoute } from '../generated/catalogue';
import { ScreenRoute } from '../engine';
import { AppEngineHost, useScreenEntry } from './engine-host';
import { ErrorBoundary } from './ErrorBoundary';
import { Frame } from './Frame';
import { MessageProvider } from './messages';
import { browserHistory, Navigate, Route, Router, Routes, type History } from './router';
import { loadedScreen, screenLoader } from './screens';
import { SiteProvider } from './site';
import { SlotsContext, type Slots } from './slots';

function Shell({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <SiteProvider
      fallback={
        <p role="status" className="fd-loading">
          {t('common.loading')}
        </p>
      }
    >
      <MessageProvider>
        <AppEngineHost>
          <Frame>{children}</Frame>
        </AppEngineHost>
      </MessageProvider>
    </SiteProvider>
  );
}

/** A new path remounts the screen, so its on-enter actions run for each URL. */
function KeyedScreen({ route }: { route: CatalogueRoute }) {
  const entry = useScreenEntry(route.route, useContext(SlotsContext).start);
  const load = screenLoader(route.screenId);
  if (!load) throw new Error(`Unknown screen "${route.screenId}"`);
  return (
    <ScreenRoute
      key={entry.pathname}
      screenId={route.screenId}
      load={load}
      loaded={loadedScreen(route.screenId)}
      title={route.title}
      layout={route.layout}
      entry={entry}
    />
  );
}

/** The route table comes from the catalogue; any other path goes to /login (SPEC §2). Every screen sits in the page frame. */
export function AppRoutes() {
  return (
    <Shell>
      <Routes>
        {routes.map((route) => (
          <Route key={route.path} path={route.path} element={<KeyedScreen route={route} />} />
        ))}
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Routes>
    </Shell>
  );
}

/**
 * The page: the browser's history, or in the build's prerendering a fixed one and the slots the server
 * fills in (scripts/prerender.ts). The same tree either way, so the browser hydrates the server's page.
 */
export function App({ history = browserHistory, slots = NO_SLOTS }: { history?: History; slots?: Slots }) {
  return (
    <SlotsContext.Provider value={slots}>
      <ErrorBoundary>
        <Router history={history}>
          <AppRoutes />
        </Router>
      </ErrorBoundary>
    </SlotsContext.Provider>
  );
}

const NO_SLOTS: Slots = {};
