import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { pickLanguage, startI18n, storedLanguage } from './app/i18n';
import './styles/app.css';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

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
