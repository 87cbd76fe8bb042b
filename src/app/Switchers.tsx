import { useEffect, useId, useState } from 'react';
import { useTranslation } from '../lib/i18n';
import { CompactSelect, IconContrast, IconGlobe } from '../ui';
import { availableLanguages, htmlLang, switchLanguage } from './i18n';
import { applyTheme, isTheme, storePreviewTheme, THEMES, type Theme } from './themes';

/**
 * The language switcher: a compact, labelled native select (keyboard and screen-reader support for
 * free), a globe standing for its label, which screen readers read.
 * Each language is named in itself (the same names in every locale file), with its own lang
 * attribute so a screen reader pronounces it right. Switching needs no reload.
 */
export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const id = useId();
  const [busy, setBusy] = useState(false);
  const current = i18n.resolvedLanguage ?? i18n.language;
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
      value={current}
      busy={busy}
      onChange={(event) => {
        setBusy(true);
        void switchLanguage(event.target.value)
          .catch((error: unknown) => console.error(error))
          .finally(() => setBusy(false));
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
