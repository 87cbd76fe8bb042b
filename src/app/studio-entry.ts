/**
 * What the dev studio (studio/) may use of the app: its preview renders the app's screens with the
 * app's own router, host parts, message bar, site facts, themes and languages, and its texts use the
 * app's i18next options. The studio imports src/app (and src/host) only through this module
 * (dependency-cruiser: studio-reaches-the-app-through-its-entry), so what it leans on is one list.
 */
export { MemoryRouter, Route, Routes, useLocation, useNavigate } from './router';
export { AppScreen, lazyActions, useRoutedHostParts } from './engine-host';
export { contentComponent } from './content';
export { hostBase, siteFlags } from '../host/host-base';
export { DEFAULT_LANGUAGE } from './languages';
export { MessageBar, MessageProvider } from './messages';
export { FALLBACK_SITE, SiteContext, type Site } from './site';
export { applyTheme, DEFAULT_THEME, isTheme, THEMES } from './themes';
export { I18N_OPTIONS } from './i18n-options';
