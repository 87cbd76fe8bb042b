import { lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { installFetchStub } from './stub-fetch';
import '../src/styles/app.css';
import './studio.css';

// ?picture=1: one screen state for the server's picture taker (studio/picture), without the editor's code.
const picture = new URLSearchParams(window.location.search).has('picture');
const Page = picture
  ? lazy(async () => ({ default: (await import('./picture/PicturePage')).PicturePage }))
  : lazy(async () => ({ default: (await import('./StudioApp')).StudioApp }));

installFetchStub();
const root = document.getElementById('studio');
if (!root) throw new Error('studio/index.html has no #studio');
createRoot(root).render(
  <Suspense fallback={null}>
    <Page />
  </Suspense>,
);
