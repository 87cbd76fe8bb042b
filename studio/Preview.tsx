import { Component, useEffect, useMemo, useRef, type ReactNode } from 'react';
import {
  applyTheme,
  AppScreen,
  contentComponent,
  DEFAULT_LANGUAGE,
  DEFAULT_THEME,
  FALLBACK_SITE,
  hostBase,
  isTheme,
  lazyActions,
  MemoryRouter,
  MessageBar,
  MessageProvider,
  Route,
  Routes,
  type Site,
  SiteContext,
  siteFlags,
  useLocation,
  useNavigate,
  useRoutedHostParts,
} from '../src/app/studio-entry';
import { ValidatorFactoryContext, EngineHostProvider, type EngineHost, type ScreenFile, type SharedOutcomes, type ScreenApi } from '../src/engine';
import { Button, CardBrand, ProductMark } from '../src/ui';
import { previewI18n } from './preview-i18n';
import { TextsProvider } from '../src/lib/i18n';
import { runtimeValidator } from './runtime-validator';
import { st } from './studio-i18n';
import { routeMatches } from '../catalogue/language/routes';
import type { CatalogueRoute } from '../catalogue/studio-contract';

export interface PreviewFlags {
  branded: boolean;
  production: boolean;
  selfRegistrationEnabled: boolean;
}

export interface PreviewProps {
  screen: ScreenFile;
  /** The step to show first (the preview's initialStep). */
  step: string;
  locales: Record<string, Record<string, unknown>>;
  lang: string;
  theme: string;
  flags: PreviewFlags;
  url: string;
  routes: CatalogueRoute[];
  outcomes: SharedOutcomes;
  /** Receives the screen's API once it renders (the simulator submits through it, without validation). */
  onApi(api: ScreenApi): void;
  /** A step that the form engine could not render (an exception, or rjsf's own configuration error). */
  onRenderError(message: string): void;
}

/**
 * The name of a content block the studio adds to every step of the previewed screen (never to a
 * file): it renders nothing and hands the screen's API to the studio.
 */
const STUDIO_HOOK = 'studioScreenApi';

function withHook(screen: ScreenFile): ScreenFile {
  const hook = { type: 'component' as const, name: STUDIO_HOOK };
  const steps = Object.fromEntries(
    Object.entries(screen.steps).map(([name, step]) => [name, { ...step, blocks: { ...step.blocks, after: [...(step.blocks?.after ?? []), hook] } }]),
  );
  return { ...screen, steps };
}

/** A demo brand for the branded-site preview (the demo tenant's branded.localhost). */
const DEMO_BRAND = { loginLogo: '/branding/assets/acme-logo.svg', browserName: 'Acme IT' };

class PreviewBoundary extends Component<{ children: ReactNode; onError(message: string): void }, { error?: Error }> {
  override state: { error?: Error } = {};
  static getDerivedStateFromError(error: Error) {
    return { error };
  }
  override componentDidCatch(error: Error) {
    this.props.onError(error.message);
  }
  override render() {
    // The reason is listed with the problems (file and pointer); here only that the preview stopped.
    if (this.state.error)
      return (
        <p role="alert" className="fd-form-error">
          {st('studio.previewCrashed')}
        </p>
      );
    return this.props.children;
  }
}

/** Where an outcome navigated: the studio stays, and says which screen that route shows. */
function LeftScreen({ routes, home }: { routes: CatalogueRoute[]; home: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const path = `${location.pathname}${location.search}`;
  const target = routes.find((r) => routeMatches(r.path, location.pathname));
  return (
    <div className="studio__left-screen" data-testid="studio-left">
      <p>{st('studio.left', { path })}</p>
      <p>{target ? st('studio.leftScreen', { screen: target.screenId }) : st('studio.leftNoScreen')}</p>
      <Button variant="secondary" onClick={() => navigate(home)}>
        {st('studio.backToScreen')}
      </Button>
    </div>
  );
}

/**
 * The studio as the engine's host: the preview's memory router, its message bar and site flags, the
 * real registries and operation client (whose fetch the studio stubs); nothing leaves the page: a
 * sign-in or a redirect shows where it would go.
 */
function StudioHost({ site, onApi, children }: { site: Site; onApi(api: ScreenApi): void; children: ReactNode }) {
  const routed = useRoutedHostParts();
  const ApiHook = useMemo(
    () =>
      function ApiHook(api: ScreenApi) {
        useEffect(() => onApi(api));
        return null;
      },
    [onApi],
  );
  const host = useMemo<EngineHost>(
    () =>
      hostBase({
        ...routed,
        leave: (url) => routed.navigate(url.startsWith('/') ? url : `/?left=${encodeURIComponent(url)}`),
        authenticate: async () => routed.navigate('/app/'),
        report: () => undefined,
        flags: siteFlags(site),
        env: () => ({ origin: window.location.origin, brandingHostname: window.location.hostname, browserLanguage: DEFAULT_LANGUAGE }),
        content: (name) => (name === STUDIO_HOOK ? ApiHook : contentComponent(name)),
        actions: lazyActions,
        botCheck: site.botCheck,
      }),
    [routed, site, ApiHook],
  );
  return <EngineHostProvider value={host}>{children}</EngineHostProvider>;
}

/**
 * The real engine (ScreenRuntime) on the edited screen: its own i18next instance holding the
 * edited texts, the chosen site flags and theme, a memory router (navigation stays inside the
 * preview) and validators compiled at run time. Server calls are answered by the fetch stub.
 */
export function Preview({ screen, step, locales, lang, theme, flags, url, routes, outcomes, onApi, onRenderError }: PreviewProps) {
  const i18n = useMemo(() => previewI18n(locales, lang), [locales, lang]);
  // The app's components read their texts through src/lib/i18n: here, the edited ones.
  const texts = useMemo(
    () => ({ language: lang, resolvedLanguage: lang, t: (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {}) }),
    [i18n, lang],
  );

  const site: Site = useMemo(
    () => ({
      ...FALLBACK_SITE,
      production: flags.production,
      selfRegistrationEnabled: flags.selfRegistrationEnabled,
      branded: flags.branded,
      branding: { isEnabled: true, theme: isTheme(theme) ? theme : DEFAULT_THEME, ...(flags.branded ? DEMO_BRAND : {}) },
    }),
    [flags, theme],
  );

  useEffect(() => {
    applyTheme(site.branding.theme);
  }, [site.branding.theme]);

  const module = useMemo(() => ({ screen: withHook({ ...screen, initialStep: step }), outcomes, validators: {} }), [screen, step, outcomes]);
  const home = url;

  // rjsf does not throw on a configuration it cannot render: it draws its own error and a JSON dump
  // (hidden by studio/styles/editor.css). Watch for it and report it as a problem instead.
  const container = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const node = container.current;
    if (!node) return;
    const look = () => {
      const error = node.querySelector('.rjsf-config-error');
      if (error) onRenderError(error.textContent ?? '');
    };
    look();
    const observer = new MutationObserver(look);
    observer.observe(node, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [onRenderError]);

  return (
    <div className="studio__preview fd-page" data-testid="studio-preview" lang={lang} ref={container}>
      <PreviewBoundary onError={onRenderError}>
        <TextsProvider value={texts}>
          <SiteContext.Provider value={site}>
            <ValidatorFactoryContext.Provider value={runtimeValidator}>
              <MessageProvider>
                <MessageBar />
                <CardBrand.Provider
                  value={
                    <span className="fd-brand">
                      {site.branding.loginLogo ? (
                        <img className="fd-brand__logo" src={site.branding.loginLogo} alt={site.branding.browserName ?? ''} />
                      ) : (
                        <ProductMark name={i18n.t('app.defaultTitle')} />
                      )}
                    </span>
                  }
                >
                  <main className="fd-main">
                    <MemoryRouter initialEntries={[url]}>
                      <StudioHost site={site} onApi={onApi}>
                        <Routes>
                          {/* A screen without routes (mounted by code, like the Verify MFA modal) shows at "/". */}
                          {(screen.routes ?? [{ path: '/' }]).map((route) => (
                            <Route key={route.path} path={route.path} element={<AppScreen module={module} route={route} />} />
                          ))}
                          <Route path="*" element={<LeftScreen routes={routes} home={home} />} />
                        </Routes>
                      </StudioHost>
                    </MemoryRouter>
                  </main>
                </CardBrand.Provider>
              </MessageProvider>
            </ValidatorFactoryContext.Provider>
          </SiteContext.Provider>
        </TextsProvider>
      </PreviewBoundary>
    </div>
  );
}

/** A URL that shows the screen: route parameters filled with samples, a sample state parameter. */
export function sampleUrl(screen: ScreenFile, encode: (value: Record<string, unknown>) => string): string {
  const route = screen.routes?.[0]?.path ?? '/';
  const path =
    route
      .split('/')
      .filter((s) => !s.endsWith('?'))
      .map((s) => (s.startsWith(':') ? `SAMPLE-${s.slice(1)}` : s))
      .join('/') || '/';
  if (!screen.stateParam) return path;
  const state: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(screen.stateParam.fields)) {
    if (field.type === 'boolean') state[name] = true;
    else if (field.type === 'number') state[name] = 1;
    else if (field.type === 'stringArray') state[name] = field.enum ?? ['sample'];
    else state[name] = field.enum?.[0] ?? `sample-${name}`;
  }
  return `${path}?state=${encode(state)}`;
}
