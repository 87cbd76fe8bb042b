import { BrowserRouter, Navigate, Outlet, Route, Routes } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { routes, loaders, type CatalogueRoute } from '../generated/catalogue';
import { ScreenRoute } from '../engine';
import { AppEngineHost, useScreenEntry } from './engine-host';
import { ErrorBoundary } from './ErrorBoundary';
import { Frame } from './Frame';
import { MessageProvider } from './messages';
import { SiteProvider } from './site';

function Shell() {
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
          <Frame>
            <Outlet />
          </Frame>
        </AppEngineHost>
      </MessageProvider>
    </SiteProvider>
  );
}

/** A new path remounts the screen, so its on-enter actions run for each URL. */
function KeyedScreen({ route }: { route: CatalogueRoute }) {
  const entry = useScreenEntry(route.route);
  const load = loaders[route.screenId];
  if (!load) throw new Error(`Unknown screen "${route.screenId}"`);
  return <ScreenRoute key={entry.pathname} screenId={route.screenId} load={load} title={route.title} layout={route.layout} entry={entry} />;
}

/**
 * The route table comes from the catalogue; any other path goes to /login (SPEC §2).
 * A declarative router: the app uses no loaders, actions or fetchers, and the data router
 * that provides them weighed about a third of react-router in the entry chunk.
 */
export function AppRoutes() {
  return (
    <Routes>
      <Route element={<Shell />}>
        {routes.map((route) => (
          <Route key={route.path} path={route.path} element={<KeyedScreen route={route} />} />
        ))}
        <Route path="*" element={<Navigate to="/login" replace />} />
      </Route>
    </Routes>
  );
}

export function App() {
  return (
    <ErrorBoundary>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
