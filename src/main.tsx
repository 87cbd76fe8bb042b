import { startTransition } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { routeMatches } from '../catalogue/language/routes';
import { App } from './app/App';
import { pickLanguage, startI18n, storedLanguage } from './app/i18n';
import { preloadScreen } from './app/screens';
import { adoptSite, preloadSite, type SiteAnswers } from './app/site';
import { routes } from './generated/catalogue';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

/**
 * What the server wrote into the page (server/spa/html.ts): the language it is in, the answers of the
 * two start-up calls (no round trip for them), and whether #root holds the build's prerendering of
 * this route's first state (scripts/prerender.ts), to be hydrated rather than drawn again.
 */
interface PageFacts extends SiteAnswers {
  lang?: string;
  hydrate?: boolean;
  /** The text chunk of the page's first texts (its name, and its file: src/app/i18n.ts loads it, one request). */
  texts?: string[];
  textsFile?: string;
}

function pageFacts(): PageFacts {
  try {
    const facts: unknown = JSON.parse(root?.dataset.page ?? '{}');
    return facts !== null && typeof facts === 'object' ? (facts as PageFacts) : {};
  } catch {
    return {};
  }
}

const page = pageFacts();

// Start what the first screen waits for now, in parallel with the texts: the route's screen chunk and,
// when the page does not carry them, the site calls (app config, branding).
const first = routes.find((route) => routeMatches(route.path, window.location.pathname));
const screen = first ? preloadScreen(first.screenId)?.catch(() => undefined) : undefined;
const site = page.config || page.branding ? adoptSite(page) : preloadSite().catch(() => undefined);

// The server's language (it read the visitor's choice, then Accept-Language, as the app does), else
// an explicit choice from the language switcher, then the browser's languages.
const lang = page.lang ?? storedLanguage() ?? pickLanguage(navigator.languages ?? [navigator.language]);

/** History state from an earlier visit (a reload) can change the screen's first state: the server's page did not know it. */
const plainHistory = () => {
  const state = (window.history.state as { usr?: unknown } | null)?.usr;
  return state === undefined || state === null || (typeof state === 'object' && Object.keys(state).length === 0);
};

const hydrate = page.hydrate === true && plainHistory();
void Promise.all([startI18n(lang, hydrate ? { file: page.textsFile, bundle: page.texts?.[0] } : undefined), site, screen]).then(
  () => {
    // The prerendered page as it is: the same markup, now live, and whatever was typed into it kept
    // (src/engine/form/FormStep.tsx takes it over). Otherwise the app draws the page itself.
    // The browser build's react is Preact's compat layer (vite.config.ts): its hydration is one task
    // (startTransition runs it at once), a short one; the page is usable before and during it.
    // The rest of the language's texts load when a later screen, a call or a language switch needs them.
    if (hydrate) startTransition(() => void hydrateRoot(root, <App />));
    else createRoot(root).render(<App />);
  },
  (error: unknown) => {
    // Without texts there is nothing to show: index.html carries a static notice for this.
    console.error(error);
    root.textContent = root.dataset.fatal ?? '';
  },
);
