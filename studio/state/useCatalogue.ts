import { useCallback, useEffect, useState } from 'react';
import type { CatalogueTexts } from '../../catalogue/studio-contract';
import { loadCatalogue } from '../api';
import type { LocaleTexts } from '../recipes/edits';

/** The catalogue's files as the server last gave them (or as the last save wrote them). */
export function useCatalogue() {
  const [catalogue, setCatalogue] = useState<CatalogueTexts>();
  const [loadError, setLoadError] = useState<string>();
  useEffect(() => {
    loadCatalogue().then(setCatalogue, (error: unknown) => setLoadError(String(error)));
  }, []);
  /** After a save: the saved texts are the files now. */
  const saved = useCallback((screenId: string, screenText: string, locales: LocaleTexts) => {
    setCatalogue((c) =>
      c ? { ...c, screens: c.screens.map((s) => (s.id === screenId ? { ...s, text: screenText } : s)), locales: { ...c.locales, ...locales } } : c,
    );
  }, []);
  return { catalogue, loadError, saved };
}
