/**
 * The static page in each route's HTML: the page frame and the screen's card with its heading, in
 * the visitor's language, so the first paint shows them while the scripts load (on a slow line that
 * is seconds), and a <noscript> message in that language for a browser without JavaScript. Plain
 * markup with the app's own classes: no inline script or style, the CSP stays as it is. The app
 * replaces it when it starts (src/main.tsx renders into #root) with the same frame and card
 * (src/app/Frame.tsx, src/engine/LoadingCard.tsx, src/ui/Card.tsx: the brand, the heading), in the
 * host's theme, so nothing jumps.
 */
import type { ShellData, ShellRoute } from '../../catalogue/build-contract.js';
import { DEFAULT_THEME } from '../services/lists.js';

export type { ShellData, ShellRoute };

/** How the host is branded (server/routes/branding.ts): its own name, logo and theme, no product footer; or switched off. */
export type ShellBranding = { kind: 'default'; theme?: string } | { kind: 'branded'; name?: string; logo?: string; theme?: string } | { kind: 'disabled' };

export interface ShellPage {
  /** The lang attribute (BCP 47). */
  lang: string;
  /** The dir attribute: the language's writing direction. */
  dir: 'ltr' | 'rtl';
  /** The data-theme attribute: the host's theme (the app sets the same from its branding). */
  theme: string;
  /** The document title, '{page} | {brand}' as the app sets it. */
  title: string;
  /** The markup inside #root; empty for a host whose site is switched off (the app says so). */
  root: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** i18next's {{name}} interpolation for the few values the frame has. */
const interpolate = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

export function shellPage(
  route: ShellRoute,
  shell: Pick<ShellData, 'lang' | 'frame'> & Partial<Pick<ShellData, 'rtl'>>,
  texts: Record<string, string>,
  lang: string,
  branding: ShellBranding,
  year: number,
): ShellPage {
  const text = (key: string) => escapeHtml(texts[key] ?? key);
  const heading = text(route.title);
  const branded = branding.kind === 'branded';
  const brand = branded && branding.name ? escapeHtml(branding.name) : text('app.defaultTitle');
  // The host's theme, as the app applies it (src/app/site.tsx: a branded host's or not).
  const chosen = branding.kind === 'disabled' ? undefined : branding.theme;
  const theme = chosen && shell.frame.themes.includes(chosen) ? chosen : DEFAULT_THEME;
  const page = { lang: shell.lang[lang] ?? lang, dir: shell.rtl?.includes(lang) ? ('rtl' as const) : ('ltr' as const), title: `${heading} | ${brand}`, theme };
  if (branding.kind === 'disabled') return { ...page, root: '' };
  // The card's brand, as src/app/Frame.tsx draws it: the site's logo, else the product mark and name.
  const home = route.path.startsWith('/mlogin') ? '/mlogin' : '/login';
  const logo =
    branded && branding.logo
      ? `<img class="fd-brand__logo" src="${escapeHtml(branding.logo)}" alt="${brand}">`
      : `${shell.frame.brandMark}<span class="fd-brand__name">${text('app.defaultTitle')}</span>`;
  // The language picker needs the app; its place is kept so the card does not move when it comes.
  const header = `<header class="fd-header"><div class="fd-toolbar" aria-hidden="true"><span class="fd-switch--placeholder"></span></div></header>`;
  const footer = branded
    ? ''
    : `<footer class="fd-footer"><span>${escapeHtml(interpolate(texts['app.copyright'] ?? '', { from: shell.frame.copyrightFirstYear, to: year }))}</span>` +
      `<a href="${escapeHtml(shell.frame.contactUrl)}" target="_blank" rel="noopener noreferrer">${text('app.contactUs')}</a></footer>`;
  const root =
    `<div class="fd-page">${header}<main class="fd-main">` +
    `<section class="fd-screen fd-screen--${route.layout === 'wide' ? 'wide' : 'card'}">` +
    `<a href="${home}" class="fd-brand">${logo}</a>` +
    `<h1 class="fd-screen__title">${heading}</h1>` +
    `<p class="fd-loading" role="status">${text('common.loading')}</p>` +
    `<noscript><p class="fd-noscript">${text('common.noscript')}</p></noscript>` +
    `</section></main>${footer}</div>`;
  return { ...page, root };
}

/** The route's heading and the texts of a language into index.html (lang, dir, title, #root and attributes of its own). */
export function withShell(indexHtml: string, shell: ShellPage, rootAttributes = ''): string {
  return indexHtml
    .replace(
      /<html lang="[^"]*"( dir="[^"]*")?( data-theme="[^"]*")?/,
      `<html lang="${shell.lang}"${shell.dir === 'rtl' ? ' dir="rtl"' : ''} data-theme="${shell.theme}"`,
    )
    .replace(/<title>[^<]*<\/title>/, () => `<title>${shell.title}</title>`)
    .replace(
      /<div id="root"([^>]*)><\/div>/,
      (_all, attributes: string) => `<div id="root"${attributes}${rootAttributes ? ` ${rootAttributes}` : ''}>${shell.root}</div>`,
    );
}
