import { useCallback, useMemo, useState } from 'react';
import type { CatalogueTexts } from '../../catalogue/studio-contract';
import type { LocaleTexts } from '../recipes/edits';

/** The screen the studio shows first, when the catalogue has it. */
const FIRST_SCREEN = 'login';

/**
 * The unsaved edits: the texts of screen files (by screen) and of locale files as typed or as a
 * recipe left them. `editorKey` changes when an edit comes from elsewhere than the editors (a
 * recipe, a reset, another screen), so the editors start again from the new text.
 */
export function useEdits(catalogue: CatalogueTexts | undefined) {
  const [chosen, setChosen] = useState<string>();
  const [screenEdits, setScreenEdits] = useState<Record<string, string>>({});
  const [localeEdits, setLocaleEdits] = useState<LocaleTexts>({});
  const [editorKey, setEditorKey] = useState(0);

  const screenId = chosen ?? (catalogue && !catalogue.screens.some((s) => s.id === FIRST_SCREEN) ? (catalogue.screens[0]?.id ?? '') : FIRST_SCREEN);
  const screenText = screenEdits[screenId] ?? catalogue?.screens.find((s) => s.id === screenId)?.text ?? '';
  const localeText = useCallback((file: string): string | undefined => localeEdits[file] ?? catalogue?.locales[file], [localeEdits, catalogue]);
  const changedLocales = useMemo(
    () => Object.fromEntries(Object.entries(localeEdits).filter(([file, text]) => catalogue?.locales[file] !== text)),
    [localeEdits, catalogue],
  );

  const selectScreen = useCallback((id: string) => {
    setChosen(id);
    setEditorKey((k) => k + 1);
  }, []);
  /** Typed in the screen editor (the editor keeps its own state: no remount). */
  const typeScreen = useCallback((text: string) => setScreenEdits((e) => ({ ...e, [screenId]: text })), [screenId]);
  const typeLocale = useCallback((file: string, text: string) => setLocaleEdits((e) => ({ ...e, [file]: text })), []);
  /** A recipe's edit of the screen and/or locale files. */
  const apply = useCallback(
    (edit: { screen?: string; locales?: LocaleTexts }) => {
      const { screen, locales } = edit;
      if (screen !== undefined) setScreenEdits((e) => ({ ...e, [screenId]: screen }));
      if (locales)
        setLocaleEdits((e) => ({
          ...e,
          ...Object.fromEntries(Object.entries(locales).filter(([file, text]) => (e[file] ?? catalogue?.locales[file]) !== text)),
        }));
      setEditorKey((k) => k + 1);
    },
    [screenId, catalogue],
  );
  /** Drops the screen's edits and every locale edit (after a save, or a reset). */
  const discard = useCallback(
    (remount: boolean) => {
      setScreenEdits((e) => Object.fromEntries(Object.entries(e).filter(([id]) => id !== screenId)));
      setLocaleEdits({});
      if (remount) setEditorKey((k) => k + 1);
    },
    [screenId],
  );
  /** A saved draft opened for editing: its screen text (when it changes the screen) and locale texts replace every edit. */
  const load = useCallback((id: string, screen: string | undefined, locales: LocaleTexts) => {
    setChosen(id);
    setScreenEdits((e) => {
      const { [id]: _old, ...others } = e;
      return screen === undefined ? others : { ...others, [id]: screen };
    });
    setLocaleEdits(locales);
    setEditorKey((k) => k + 1);
  }, []);
  return { screenId, screenText, localeText, changedLocales, editorKey, selectScreen, typeScreen, typeLocale, apply, discard, load };
}
