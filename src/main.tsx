import { createRoot } from 'react-dom/client';
import { routeMatches } from '../catalogue/language/routes';
import { App } from './app/App';
import { pickLanguage, startI18n, storedLanguage } from './app/i18n';
import { preloadSite } from './app/site';
import { loaders, routes } from './generated/catalogue';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

// Start what the first screen waits for now, in parallel with the texts, not one after the other:
// the site calls (app config, branding) and the screen's chunk. Failures surface where they are used.
// The first render has the site facts (no loading state between).
const site = preloadSite().catch(() => undefined);
const first = routes.find((route) => routeMatches(route.path, window.location.pathname));
if (first) loaders[first.screenId]?.().catch(() => undefined);

// An explicit choice from the language switcher wins over the browser's languages.
const chosen = storedLanguage();
// Until the texts and the site facts are here, the server's static page shows the frame and the
// card (server/spa-shell.ts); the first render then shows the same with the right branding.
void Promise.all([startI18n(chosen ?? pickLanguage(navigator.languages ?? [navigator.language])), site]).then(
  () => createRoot(root).render(<App />),
  (error: unknown) => {
    // Without texts there is nothing to translate: index.html carries a static notice for this.
    console.error(error);
    root.textContent = root.dataset.fatal ?? '';
  },
);
