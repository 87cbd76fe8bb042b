import { useCallback, useEffect, useEffectEvent, useMemo, useRef, useState } from 'react';
import { NO_SHARED_OUTCOMES } from '../../catalogue/language/outcome-lookup';
import type { CatalogueTexts, ChangeDetail, CheckedEdit } from '../../catalogue/studio-contract';
import type { ScreenFile } from '../../src/engine';
import { parseObject, type LocaleTexts } from '../recipes/edits';
import type { RecipeContext } from '../recipes/context';
import { renderErrorProblem, renderProblems } from '../render-problems';
import type { useCheck } from './useCheck';
import type { useDraft } from './useDraft';
import type { useEdits } from './useEdits';

type Edits = ReturnType<typeof useEdits>;
type View = CheckedEdit | undefined;

/**
 * The preview's render error, kept with the preview version it happened in (a later version is
 * rendered afresh); the same error again changes nothing.
 */
export function useRenderError(previewVersion: number) {
  const [renderError, setRenderError] = useState<{ version: number; message: string }>();
  // Read by the preview's error boundary during its commit (child effects run before this hook's):
  // set while rendering, so an error of the new version is kept with it.
  const version = useRef(previewVersion);
  version.current = previewVersion;
  const onRenderError = useCallback((message: string) => {
    setRenderError((known) => (known?.version === version.current && known.message === message ? known : { version: version.current, message }));
  }, []);
  return { renderError, onRenderError };
}

/** Problems beside the check's: what would stop the form engine from rendering the preview (the field order, a render error of this step). */
export function usePreviewProblems(
  screen: ScreenFile | undefined,
  screenText: string,
  step: string | undefined,
  renderError: { version: number; message: string } | undefined,
  previewVersion: number,
) {
  const orderProblems = screen ? renderProblems(screen, screenText) : [];
  const stepBlocked = orderProblems.some((p) => p.pointer.startsWith(`/steps/${step ?? ''}/`));
  const previewProblems =
    renderError && renderError.version === previewVersion && step && !stepBlocked && screen
      ? [renderErrorProblem(screen.id, step, renderError.message, screenText)]
      : [];
  return { problems: [...orderProblems, ...previewProblems], stepBlocked };
}

/** What the recipes (the forms tab) read and do: the screen as written and as checked, its texts, the catalogue's codes, routes and outcomes. */
export function useRecipeContext(
  edits: Edits,
  catalogue: CatalogueTexts,
  view: View,
  step: string | undefined,
  apply: RecipeContext['apply'],
  showText: RecipeContext['showText'],
): RecipeContext | undefined {
  const { screenId, screenText, localeText } = edits;
  const raw = useMemo(() => parseObject(screenText), [screenText]);
  return useMemo<RecipeContext | undefined>(
    () =>
      raw && step
        ? {
            screenId,
            step,
            screenText,
            raw,
            resolved: view?.screen ?? undefined,
            texts: view?.locales ?? {},
            localeFile: localeText,
            languages: catalogue.languages,
            resultCodes: view?.resultCodes ?? {},
            routes: view?.routes ?? [],
            outcomes: view?.outcomes ?? NO_SHARED_OUTCOMES,
            apply,
            showText,
          }
        : undefined,
    [raw, step, catalogue, screenId, screenText, view, localeText, apply, showText],
  );
}

/**
 * A change opened from the Changes view: its texts replace the edits, and saving saves it again. Only a
 * newly opened change is loaded (not a new catalogue object after a publish).
 */
export function useOpening(
  opening: ChangeDetail | undefined,
  catalogue: CatalogueTexts,
  edits: Edits,
  draft: ReturnType<typeof useDraft>,
  check: ReturnType<typeof useCheck>,
  onOpened: () => void,
) {
  const open = useEffectEvent((change: ChangeDetail) => {
    const screenFile = change.texts[`screens/${change.screenId}.json`];
    const locales: LocaleTexts = Object.fromEntries(
      Object.entries(change.texts)
        .filter(([path]) => path.startsWith('locales/'))
        .map(([path, text]) => [path.slice('locales/'.length), text]),
    );
    edits.load(change.screenId, screenFile, locales);
    const changed = Object.fromEntries(Object.entries(locales).filter(([file, text]) => catalogue.locales[file] !== text));
    const screen = screenFile ?? catalogue.screens.find((s) => s.id === change.screenId)?.text ?? '';
    draft.open(change, JSON.stringify([change.screenId, screen, changed]));
    check.forget();
    onOpened();
  });
  useEffect(() => {
    if (opening) open(opening);
  }, [opening]);
}
