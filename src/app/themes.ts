import { theme } from '../generated/lists';
import { DEFAULT_THEME } from '../platform/constants/limits';

/**
 * The themes of SPEC §3 (the list and its default are schemas/defs/theme.json). Each is a set of CSS
 * custom properties in src/styles/themes.css, selected by data-theme on <html>; switching is an
 * attribute change (no reload, CSP-safe).
 */
export const THEMES = theme;
export type Theme = (typeof THEMES)[number];
export { DEFAULT_THEME };

export function isTheme(value: unknown): value is Theme {
  return typeof value === 'string' && (THEMES as readonly string[]).includes(value);
}

/** Applies a theme to the page: one attribute, read by themes.css. */
export function applyTheme(theme: Theme): void {
  document.documentElement.dataset.theme = theme;
}

/** Where a designer's preview choice lives for the tab, so it survives navigation between screens. */
const PREVIEW_KEY = 'fd-theme-preview';

/**
 * The theme preview (outside production only): '?theme=theme-three' selects a theme for this tab
 * and shows the theme switcher. Anything that is not a known theme is ignored.
 */
export function previewTheme(search: string): Theme | undefined {
  const asked = new URLSearchParams(search).get('theme');
  try {
    if (isTheme(asked)) {
      sessionStorage.setItem(PREVIEW_KEY, asked);
      return asked;
    }
    const stored = sessionStorage.getItem(PREVIEW_KEY);
    return isTheme(stored) ? stored : undefined;
  } catch {
    // Storage can be blocked (privacy settings): the preview then lasts for this page only.
    return isTheme(asked) ? asked : undefined;
  }
}

export function storePreviewTheme(theme: Theme): void {
  try {
    sessionStorage.setItem(PREVIEW_KEY, theme);
  } catch {
    /* storage blocked: the choice still applies to this page */
  }
}
