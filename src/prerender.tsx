import { prerender } from 'react-dom/static';
import { App } from './app/App';
import { setPrerenderPlace, type Place } from './host/place';
import { availableLanguages, loadTexts } from './app/i18n';
import { staticHistory } from './app/router';
import { holdScreens, preloadScreen } from './app/screens';
import { adoptSite, type SiteAnswers } from './app/site';
import type { Slots } from './app/slots';
import { routes } from './generated/catalogue';
import { setTexts } from './lib/i18n';
import { matchRoute } from '../catalogue/language/routes';

/**
 * The build's prerendering (scripts/prerender.ts builds this module for Node, then renders every
 * route's pages with it): the app itself — the same App, catalogue, engine and widgets the browser
 * runs — rendered by React's server renderer at one place, in one language, for one site. No second
 * copy of a screen: what the browser's first render draws is what this draws, so it hydrates.
 */
export { availableLanguages, routes };

/** A screen's module (its expanded screen file and the shared outcomes it includes), for the plain forms' descriptions. */
export async function screenModule(screenId: string) {
  const module = await preloadScreen(screenId);
  return module ? { screen: module.screen, outcomes: module.outcomes } : undefined;
}

export interface PageRequest {
  /** The path to render (a route's sample path). */
  path: string;
  lang: string;
  /** What the two start-up calls would answer (the site facts). */
  answers: SiteAnswers;
  /** Origin, host name and browser languages the page is rendered for. */
  place: Place;
  /** Slot tokens (server/spa/html.ts fills them in) and, for a plain form's answers, the state shown. */
  slots: Slots;
  /** The route's loading page (its card while the screen's chunk loads) instead of the screen. */
  loading?: boolean;
}

export interface RenderedPage {
  html: string;
  /** The locale files whose texts the page shows (the browser loads those before it hydrates). */
  texts: string[];
}

export async function renderPage(request: PageRequest): Promise<RenderedPage> {
  const texts = await loadTexts(request.lang);
  const used = new Set<string>();
  setTexts({
    ...texts,
    t: (key, values) => {
      used.add(key.split('.')[0] ?? key);
      return texts.t(key, values);
    },
  });
  adoptSite(request.answers);
  setPrerenderPlace(request.place);
  const route = routes.find((candidate) => matchRoute(candidate.path, request.path));
  if (route && !request.loading) await preloadScreen(route.screenId);
  holdScreens(request.loading === true);
  const { prelude } = await prerender(<App history={staticHistory(request.path)} slots={request.slots} />);
  return { html: await new Response(prelude).text(), texts: [...used].sort() };
}
