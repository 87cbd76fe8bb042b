import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { CompactSelect, IconContrast, IconGlobe } from '../ui';
import { availableLanguages, htmlLang, switchLanguage } from './i18n';
import { applyTheme, isTheme, storePreviewTheme, THEMES, type Theme } from './themes';

/** Keys that move through a closed select's choices, changing its value as they go. */
const MOVING_KEYS = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'PageUp', 'PageDown']);

/**
 * The language switcher: a compact, labelled native select (keyboard and screen-reader support for
 * free), a globe standing for its label, which screen readers read.
 * Each language is named in itself (the same names in every locale file), with its own lang
 * attribute so a screen reader pronounces it right. Switching needs no reload.
 * A choice made with the pointer, or with Enter, switches at once; moving through the choices with
 * the arrow keys (or typing a name), which changes a closed select's value at each key, only shows
 * the choice, and the page switches on Enter or when focus leaves the picker (WCAG 3.2.2: no change
 * of context while the visitor is still choosing).
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const current = i18n.resolvedLanguage ?? i18n.language;
  // A choice shown but not yet switched to (made with the keys); the key that made the last change.
  const [pending, setPending] = useState<string>();
  const lastKey = useRef<string>(undefined);
  const switchTo = (lang: string | undefined) => {
    setPending(undefined);
    if (!lang || lang === current) return;
    setBusy(true);
    void switchLanguage(lang)
      .catch((error: unknown) => console.error(error))
      .finally(() => setBusy(false));
  };
  // In a page the server prerendered the picker shows before the app runs: a language chosen then is
  // still chosen in the select when the app takes the page over, and is switched to now.
  useEffect(() => {
    const select = document.getElementById(id);
    if (select instanceof HTMLSelectElement && select.value !== current) void switchLanguage(select.value).catch((error: unknown) => console.error(error));
    // Once, when the app takes the page over.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  return (
    <CompactSelect
      id={id}
      label={t('app.language')}
      icon={<IconGlobe size={18} />}
      value={pending ?? current}
      busy={busy}
      onKeyDown={(event) => {
        lastKey.current = event.key;
        if (event.key === 'Enter' && pending) switchTo(pending);
      }}
      onPointerDown={() => {
        lastKey.current = undefined;
      }}
      onBlur={() => switchTo(pending)}
      onChange={(event) => {
        // Typing a letter jumps to a name as the arrows do; Space only opens the list.
        const key = lastKey.current;
        const moving = key !== undefined && (MOVING_KEYS.has(key) || (key.length === 1 && key !== ' '));
        lastKey.current = undefined;
        if (moving) setPending(event.target.value);
        else switchTo(event.target.value);
      }}
    >
      {availableLanguages().map((lang) => (
        <option key={lang} value={lang} lang={htmlLang(lang)}>
          {t(`app.languages.${lang}`)}
        </option>
      ))}
    </CompactSelect>
  );
}

/** The designers' theme preview (see themes.ts previewTheme): applies a theme live. */
export function ThemeSwitch({ theme, onChange }: { theme: Theme; onChange(theme: Theme): void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <CompactSelect
      id={id}
      label={t('app.theme')}
      icon={<IconContrast size={18} />}
      value={theme}
      onChange={(event) => {
        const next = event.target.value;
        if (!isTheme(next)) return;
        storePreviewTheme(next);
        applyTheme(next);
        onChange(next);
      }}
    >
      {THEMES.map((name) => (
        <option key={name} value={name}>
          {t(`app.themes.${name}`)}
        </option>
      ))}
    </CompactSelect>
  );
}
