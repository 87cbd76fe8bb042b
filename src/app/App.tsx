import type { ReactNode } from 'react';
import { useTranslation } from '../lib/i18n';
import { routes, loaders, type CatalogueRoute } from '../generated/catalogue';
import { ScreenRoute } from '../engine';
import { AppEngineHost, useScreenEntry } from './engine-host';
import { ErrorBoundary } from './ErrorBoundary';
import { Frame } from './Frame';
import { MessageProvider } from './messages';
import { BrowserRouter, Navigate, Route, Routes } from './router';
import { SiteProvider } from './site';

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
  const entry = useScreenEntry(route.route);
  const load = loaders[route.screenId];
  if (!load) throw new Error(`Unknown screen "${route.screenId}"`);
  return <ScreenRoute key={entry.pathname} screenId={route.screenId} load={load} title={route.title} layout={route.layout} entry={entry} />;
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

export function App() {
  return (
    <ErrorBoundary>
      <BrowserRouter>
        <AppRoutes />
      </BrowserRouter>
    </ErrorBoundary>
  );
}
