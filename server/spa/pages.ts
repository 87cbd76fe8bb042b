/**
 * The pages the build prerendered (scripts/prerender.ts, issue 27): each route's first state in every
 * language, as the browser's first render draws it, so the page works before its scripts arrive and
 * the browser hydrates it. This module is the format both sides share: the manifest
 * (dist/app/.vite/pages.json), the page keys, the slots and the site facts a page varies by.
 * html.ts picks and fills the page for a request.
 */

/** A site fact that can change a page: the environment, self-registration, and the host's brand (none, a name, a logo). */
export type SiteDimension = 'production' | 'selfRegistration' | 'brand';

/** What a page was found to depend on when the build rendered it. */
export interface PageVariant {
  /** The site facts it varies by: one page per combination of their values. */
  site: SiteDimension[];
  /** Query parameters that change it: with one of them in the address, the page is not sent (the browser renders the screen itself). */
  query?: string[];
  /**
   * Optional route parameters that change it (/resetPassword/:verificationCode?): the page is the
   * address without them; with one in the address, it is not sent (the screen's loading card instead).
   */
  optional?: string[];
  /** The locale files whose texts it shows: the browser loads those before it hydrates (the rest after). */
  texts?: string[];
  /** It shows the browser's language (a form's default), rendered as the page's own: sent when the two agree. */
  browserLanguage?: boolean;
  /** Cookies of the app that change it: not sent to a browser that has one of them. */
  cookies?: string[];
}

export interface PagesManifest {
  slots: typeof PAGE_SLOTS;
  /** The cookie that holds the visitor's language choice (src/app/languages.ts). */
  languageCookie: string;
  routes: Array<{
    path: string;
    screenId: string;
    /** The screen's first state; none when it depends on the route's parameters or the browser. */
    screen?: PageVariant;
    /** The screen's card while its chunk loads. */
    loading: PageVariant;
  }>;
}

/**
 * Tokens the build renders in place of what only the request knows (plain letters and hyphens, so
 * React writes them as they are); fillSlots writes the request's values, escaped, in their place.
 */
export const PAGE_SLOTS = {
  year: 'fd-slot-year-7c1e',
  brandName: 'fd-slot-brand-name-7c1e',
  logo: 'fd-slot-logo-7c1e',
  /** A plain form's answer: the error or warning above its submit (forms.ts). */
  text: 'fd-slot-text-7c1e',
  /** A plain form's answer: the message in the message bar. */
  message: 'fd-slot-message-7c1e',
} as const;

export type SiteFacts = Record<SiteDimension, string>;

/**
 * The key of a page in .vite/pages/<lang>.json: kind, route and the values of the facts it varies by.
 * Kinds: the screen's first state, its loading card, a switched-off site's card, and a plain form's
 * answers ('answer:error', 'answer:warning', 'answer:step:<step>', 'answer:step:<step>:<message kind>').
 */
export function pageKey(
  path: string,
  kind: 'screen' | 'loading' | 'disabled' | `answer:${string}`,
  dimensions: readonly SiteDimension[],
  site: SiteFacts,
): string {
  return [kind, path, ...dimensions.map((dimension) => `${dimension}=${site[dimension]}`)].join(' ');
}

/** The answers of GET /ws/app-config and GET /branding/generalData, as far as a page is concerned. */
export interface SiteAnswers {
  config: { environment?: string; selfRegistrationEnabled?: boolean };
  branding: { isEnabled?: boolean; browserName?: string; loginLogo?: string; theme?: string };
}

/** The facts a page varies by, from the site's answers (the same reading as src/app/site.tsx siteFrom). */
export function siteFacts({ config, branding }: SiteAnswers): SiteFacts {
  return {
    production: config.environment === 'production' ? '1' : '0',
    selfRegistration: config.selfRegistrationEnabled === true ? '1' : '0',
    brand: branding.loginLogo ? 'logo' : branding.browserName ? 'named' : 'none',
  };
}

export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A page with the request's values in its slots (escaped: the brand's name and logo come from the branding table). */
export function fillSlots(html: string, values: { year: number; brandName: string; logo: string }): string {
  return html
    .replaceAll(PAGE_SLOTS.year, String(values.year))
    .replaceAll(PAGE_SLOTS.brandName, escapeHtml(values.brandName))
    .replaceAll(PAGE_SLOTS.logo, escapeHtml(values.logo));
}
