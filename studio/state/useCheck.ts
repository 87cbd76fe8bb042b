import { useCallback, useEffect, useRef, useState } from 'react';
import type { CatalogueTexts, CheckedEdit } from '../../catalogue/studio-contract';
import type { Problem } from '../../catalogue/check/types';
import type { PendingTranslation } from '../../catalogue/check/pending';
import { previewEdit } from '../api';
import type { LocaleTexts } from '../recipes/edits';

/** How long typing pauses before the server checks the edit. */
const DEBOUNCE_MS = 350;

const failed = (error: unknown): CheckedEdit => ({
  problems: [{ file: '', pointer: '', message: String(error) }],
  pending: [],
  screen: null,
  locales: {},
  resultCodes: {},
  routes: [],
});

/**
 * Every edit is checked by the server (debounced); the answer drives the preview. `good` is the last
 * answer whose screen parsed: the steps, preview and forms stay while a syntax error is fixed.
 * `previewVersion` counts the renders of the preview a new answer (or a request) asks for.
 */
export function useCheck(catalogue: CatalogueTexts | undefined, screenId: string, screenText: string, changedLocales: LocaleTexts) {
  const [checked, setChecked] = useState<CheckedEdit>();
  const [good, setGood] = useState<CheckedEdit>();
  const [checking, setChecking] = useState(false);
  const [previewVersion, setPreviewVersion] = useState(0);
  const sequence = useRef(0);

  useEffect(() => {
    if (!catalogue || !screenId) return;
    const mine = ++sequence.current;
    setChecking(true);
    const timer = setTimeout(() => {
      previewEdit({ screenId, screen: screenText, locales: changedLocales })
        .catch(failed)
        .then((answer) => {
          if (mine !== sequence.current) return;
          setChecked(answer);
          if (answer.screen) {
            setGood(answer);
            setPreviewVersion((v) => v + 1);
          }
          setChecking(false);
        });
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [catalogue, screenId, screenText, changedLocales]);

  /** Another screen: nothing of the last one's answers stays. */
  const forget = useCallback(() => {
    setChecked(undefined);
    setGood(undefined);
  }, []);
  /** A refused save answers the problems of the files as they are. */
  const refused = useCallback((problems: Problem[] | undefined, pending: PendingTranslation[] | undefined) => {
    if (problems) setChecked((c) => (c ? { ...c, problems, pending: pending ?? c.pending } : c));
  }, []);
  const rerender = useCallback(() => setPreviewVersion((v) => v + 1), []);
  const view = good?.screen && good.screen.id === screenId ? good : undefined;
  return { checked, view, checking, previewVersion, forget, refused, rerender };
}
