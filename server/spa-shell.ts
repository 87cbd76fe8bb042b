/**
 * The static page in each route's HTML: the page frame and the screen's card with its heading, in
 * the visitor's language, so the first paint shows them while the scripts load (on a slow line that
 * is seconds), and a <noscript> message in that language for a browser without JavaScript. Plain
 * markup with the app's own classes: no inline script or style, the CSP stays as it is. The app
 * replaces it when it starts (src/main.tsx renders into #root) with the same frame and card
 * (src/app/Frame.tsx, src/engine/LoadingCard.tsx), so nothing jumps.
 */
/**
 * `.vite/shell.json`, written by the build (scripts/vite-static.ts): the server shares data with the
 * front end, not code, so the frame's facts and the lang attributes come with it.
 */
export interface ShellData {
  routes: Array<{ path: string; title: string; layout?: string }>;
  /** Language -> i18n key -> text: SHELL_KEYS and each route's heading. */
  texts: Record<string, Record<string, string>>;
  /** Language -> its lang attribute (BCP 47; src/app/languages.ts htmlLang). */
  lang: Record<string, string>;
  /** The frame's facts that are not texts (src/app/frame-facts.ts). */
  frame: { contactUrl: string; copyrightFirstYear: number };
}

/** The frame's own texts; each route's heading key comes on top. */
export const SHELL_KEYS = ['app.defaultTitle', 'app.copyright', 'app.contactUs', 'common.loading', 'common.noscript'];

/** How the host is branded (server/routes/branding.ts): its own name, no product footer; or switched off. */
export type ShellBranding = { kind: 'default' } | { kind: 'branded'; name?: string } | { kind: 'disabled' };

export interface ShellPage {
  /** The lang attribute (BCP 47). */
  lang: string;
  /** The document title, '{page} | {brand}' as the app sets it. */
  title: string;
  /** The markup inside #root; empty for a host whose site is switched off (the app says so). */
  root: string;
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** i18next's {{name}} interpolation for the few values the frame has. */
const interpolate = (text: string, values: Record<string, string | number>) =>
  text.replace(/\{\{\s*(\w+)\s*\}\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));

export function shellPage(route: { title: string; layout?: string }, shell: Pick<ShellData, 'lang' | 'frame'>, texts: Record<string, string>, lang: string, branding: ShellBranding, year: number): ShellPage {
  const text = (key: string) => escapeHtml(texts[key] ?? key);
  const heading = text(route.title);
  const brand = branding.kind === 'branded' && branding.name ? escapeHtml(branding.name) : text('app.defaultTitle');
  const page = { lang: shell.lang[lang] ?? lang, title: `${heading} | ${brand}` };
  if (branding.kind === 'disabled') return { ...page, root: '' };
  const branded = branding.kind === 'branded';
  // A branded site shows its own logo once the app has its branding: no product name meanwhile.
  const logo = branded ? '' : `<a href="/login" class="fd-logo"><span class="fd-logo__text">${text('app.defaultTitle')}</span></a>`;
  // The language switch needs the app; its place is kept so the card does not move when it comes.
  const header = `${logo}<div class="fd-toolbar" aria-hidden="true"><span class="fd-switch fd-switch--placeholder"></span></div>`;
  const footer = branded
    ? ''
    : `<footer class="fd-footer"><span>${escapeHtml(interpolate(texts['app.copyright'] ?? '', { from: shell.frame.copyrightFirstYear, to: year }))}</span>` +
      `<a href="${escapeHtml(shell.frame.contactUrl)}" target="_blank" rel="noopener noreferrer">${text('app.contactUs')}</a></footer>`;
  const root =
    `<div class="fd-page"><header class="fd-header">${header}</header><main class="fd-main">` +
    `<section class="fd-screen fd-screen--${route.layout === 'wide' ? 'wide' : 'card'}">` +
    `<h1 class="fd-screen__title">${heading}</h1>` +
    `<p class="fd-loading" role="status">${text('common.loading')}</p>` +
    `<noscript><p class="fd-noscript">${text('common.noscript')}</p></noscript>` +
    `</section></main>${footer}</div>`;
  return { ...page, root };
}

/** The route's heading and the texts of a language into index.html (lang, title, #root). */
export function withShell(indexHtml: string, shell: ShellPage): string {
  return indexHtml
    .replace(/<html lang="[^"]*"/, `<html lang="${shell.lang}"`)
    .replace(/<title>[^<]*<\/title>/, `<title>${shell.title}</title>`)
    .replace(/(<div id="root"[^>]*>)(<\/div>)/, `$1${shell.root}$2`);
}
