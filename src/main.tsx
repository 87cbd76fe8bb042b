import { createRoot } from 'react-dom/client';
import { matchPath } from 'react-router-dom';
import { preload } from 'swr';
import { App } from './app/App';
import { pickLanguage, startI18n, storedLanguage } from './app/i18n';
import { loadSite, SITE_KEY } from './app/site';
import { loaders, routes } from './generated/catalogue';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

// Start what the first screen waits for now, in parallel with the texts, not one after the other:
// the site calls (app config, branding) and the screen's chunk. Failures surface where they are used.
void preload(SITE_KEY, loadSite);
const first = routes.find((route) => matchPath(route.path, window.location.pathname));
if (first) loaders[first.screenId]?.().catch(() => undefined);

// An explicit choice from the language switcher wins over the browser's languages.
const chosen = storedLanguage();
void startI18n(chosen ?? pickLanguage(navigator.languages ?? [navigator.language])).then(
  () => createRoot(root).render(<App />),
  (error: unknown) => {
    // Without texts there is nothing to translate: index.html carries a static notice for this.
    console.error(error);
    root.textContent = root.dataset.fatal ?? '';
  },
);
