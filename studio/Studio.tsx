import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { NO_SHARED_OUTCOMES } from '../catalogue/language/outcome-lookup';
import { flattenKeys } from '../catalogue/check/suggest';
import { DEFAULT_LANGUAGE, DEFAULT_THEME } from '../src/app/studio-entry';
import type { CatalogueTexts, ChangeDetail } from '../catalogue/studio-contract';
import { encodeState, type ScreenApi } from '../src/engine';
import { DraftBar } from './DraftBar';
import { sampleUrl, type PreviewFlags } from './Preview';
import { PreviewPane } from './PreviewPane';
import { previewLanguages, textsLanguage } from './preview-texts';
import { Recipes } from './recipes/Recipes';
import { parseObject, type LocaleTexts } from './recipes/edits';
import type { RecipeContext } from './recipes/context';
import { renderErrorProblem, renderProblems } from './render-problems';
import type { SimCall } from './Simulator';
import { useCheck } from './state/useCheck';
import { useDraft } from './state/useDraft';
import { useEdits } from './state/useEdits';
import { ProblemList } from './StatusPanel';
import { setStub } from './stub-fetch';
import { st } from './studio-i18n';
import { ScreenTab } from './tabs/ScreenTab';
import { TextsTab } from './tabs/TextsTab';
import { TextTable } from './TextTable';
import { TopBar } from './TopBar';

type Tab = 'forms' | 'table' | 'screen' | 'texts';
const TABS: Tab[] = ['forms', 'table', 'screen', 'texts'];

interface StudioProps {
  catalogue: CatalogueTexts;
  /** A change opened from the Changes view (its author goes on editing it). */
  opening?: ChangeDetail;
  /** The draft was sent for review: the Changes view shows it. */
  onReviewRequested(id: number): void;
}

/**
 * The studio's editor: pick a screen, change it with forms for the common recipes (or, under Advanced,
 * in its files), edit a text in all languages at once, see the real engine render it (any language,
 * theme, brand), simulate result codes, and save it as a draft through the same checks as the build.
 * A draft goes to review, then to the files once another person approved it (the Changes view). The
 * edits, the server's check and the draft are hooks (./state); the bar, the tabs, the status and the
 * preview are components.
 */
export function Studio({ catalogue, opening, onReviewRequested }: StudioProps) {
  const edits = useEdits(catalogue);
  const { screenId, screenText } = edits;
  const check = useCheck(catalogue, screenId, screenText, edits.changedLocales);
  const [tab, setTab] = useState<Tab>('forms');
  const [textsFile, setTextsFile] = useState<string>();
  const [tableKey, setTableKey] = useState('');
  const [lang, setLang] = useState<string>(DEFAULT_LANGUAGE);
  const [theme, setTheme] = useState<string>(DEFAULT_THEME);
  const [flags, setFlags] = useState<PreviewFlags>({ branded: false, production: false, selfRegistrationEnabled: true });
  const [step, setStep] = useState<string>();
  const [url, setUrl] = useState<string>();
  const [renderError, setRenderError] = useState<{ version: number; message: string }>();
  const [recipeNote, setRecipeNote] = useState<string>();
  const screenApi = useRef<ScreenApi>(undefined);

  const { view, checked, previewVersion, rerender } = check;
  const screen = view?.screen ?? undefined;
  const steps = screen ? Object.keys(screen.steps) : [];
  const currentStep = step && steps.includes(step) ? step : screen?.initialStep;
  const previewUrl = url ?? (screen ? sampleUrl(screen, encodeState) : '/');

  const selectScreen = (id: string) => {
    if (id === screenId) return;
    edits.selectScreen(id);
    check.forget();
    setStep(undefined);
    setUrl(undefined);
    setTextsFile(undefined);
    setRecipeNote(undefined);
  };

  const textLang = textsLanguage(lang);
  const languageFiles = useMemo(() => Object.keys(catalogue?.locales ?? {}).filter((k) => k.startsWith(`${textLang}/`)), [catalogue, textLang]);
  const currentTextsFile =
    textsFile && languageFiles.includes(textsFile) ? textsFile : (languageFiles.find((k) => k === `${textLang}/${screenId}.json`) ?? languageFiles[0]);

  // "Run in preview" answers the call with the code and runs it through the screen's API: a submit
  // without the form's validation, so an empty form shows the simulated result, not field errors.
  const run = useCallback(
    (call: SimCall, code: string) => {
      setStub(call.call.operation, { code, resultFrom: call.call.resultFrom });
      if (call.kind === 'submit') void screenApi.current?.submit();
      else if (call.kind === 'button') void screenApi.current?.runCall(call.call);
      else if (call.kind === 'enter') rerender();
    },
    [rerender],
  );
  const onApi = useCallback((api: ScreenApi) => {
    screenApi.current = api;
  }, []);
  const version = useRef(previewVersion);
  version.current = previewVersion;
  const onRenderError = useCallback((message: string) => {
    setRenderError((known) => (known?.version === version.current && known.message === message ? known : { version: version.current, message }));
  }, []);

  const { apply: applyEdit } = edits;
  const apply = useCallback(
    (edit: { screen?: string; locales?: LocaleTexts }, done: string) => {
      applyEdit(edit);
      setRecipeNote(done);
    },
    [applyEdit],
  );
  const openText = useCallback((key: string) => {
    setTableKey(key);
    setTab('table');
  }, []);

  const raw = useMemo(() => parseObject(screenText), [screenText]);
  const recipeContext = useMemo<RecipeContext | undefined>(
    () =>
      raw && currentStep && catalogue
        ? {
            screenId,
            step: currentStep,
            screenText,
            raw,
            resolved: screen,
            texts: view?.locales ?? {},
            localeFile: edits.localeText,
            languages: catalogue.languages,
            resultCodes: view?.resultCodes ?? {},
            routes: view?.routes ?? [],
            outcomes: view?.outcomes ?? NO_SHARED_OUTCOMES,
            apply,
            showText: openText,
          }
        : undefined,
    [raw, currentStep, catalogue, screenId, screenText, screen, view, edits.localeText, apply, openText],
  );
  const defaultKeys = useMemo(() => flattenKeys(view?.locales[DEFAULT_LANGUAGE] ?? {}), [view?.locales]);

  // Problems: the check's, then what would stop the form engine from rendering the preview.
  const orderProblems = screen ? renderProblems(screen, screenText) : [];
  const stepBlocked = orderProblems.some((p) => p.pointer.startsWith(`/steps/${currentStep ?? ''}/`));
  const previewProblems =
    renderError && renderError.version === previewVersion && currentStep && !stepBlocked
      ? [renderErrorProblem(screenId, currentStep, renderError.message, screenText)]
      : [];
  const renderBlocked = orderProblems.length + previewProblems.length > 0;

  const savedScreen = catalogue.screens.find((s) => s.id === screenId)?.text;
  const draft = useDraft({
    screenId,
    screenText,
    changedLocales: edits.changedLocales,
    edited: screenText !== savedScreen || Object.keys(edits.changedLocales).length > 0,
    renderBlocked,
    onRefused: check.refused,
    onReviewRequested: (id) => {
      edits.discard(true);
      setRecipeNote(undefined);
      onReviewRequested(id);
    },
  });

  // A change opened from the Changes view: its texts replace the edits, and saving saves it again.
  const { load } = edits;
  const { open: openDraft } = draft;
  useEffect(() => {
    if (!opening) return;
    const screenFile = opening.texts[`screens/${opening.screenId}.json`];
    const locales = Object.fromEntries(
      Object.entries(opening.texts)
        .filter(([path]) => path.startsWith('locales/'))
        .map(([path, text]) => [path.slice('locales/'.length), text]),
    );
    load(opening.screenId, screenFile, locales);
    const changed = Object.fromEntries(Object.entries(locales).filter(([file, text]) => catalogue.locales[file] !== text));
    const screen = screenFile ?? catalogue.screens.find((s) => s.id === opening.screenId)?.text ?? '';
    openDraft(opening, JSON.stringify([opening.screenId, screen, changed]));
    check.forget();
    setStep(undefined);
    setUrl(undefined);
    // Only a newly opened change is loaded (not a new catalogue object after a publish).
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [opening]);

  const reset = () => {
    edits.discard(true);
    draft.close();
    setRecipeNote(undefined);
  };

  const problems = [...(checked?.problems ?? []), ...orderProblems, ...previewProblems];
  const editorFile = tab === 'screen' ? `screens/${screenId}.json` : `locales/${currentTextsFile ?? ''}`;
  const editorProblems = problems.filter((p) => p.file === editorFile);

  return (
    <div className="studio">
      <TopBar
        screens={catalogue.screens.map((s) => s.id)}
        screenId={screenId}
        onScreen={selectScreen}
        steps={steps}
        step={currentStep}
        onStep={(s) => {
          setStep(s);
          rerender();
        }}
        languages={previewLanguages(catalogue.languages)}
        lang={lang}
        onLang={setLang}
        theme={theme}
        onTheme={setTheme}
        flags={flags}
        onFlags={setFlags}
        url={previewUrl}
        onUrl={setUrl}
        onUrlDone={rerender}
      />
      <div className="studio__main">
        <section className="studio__left" aria-label={st('studio.editArea')}>
          <div className="studio__tabs" role="tablist">
            {TABS.map((name) => (
              <button
                key={name}
                type="button"
                role="tab"
                aria-selected={tab === name}
                aria-controls="studio-tab-panel"
                onClick={() => setTab(name)}
                data-testid={`studio-tab-${name}`}
              >
                {st(`studio.tabs.${name}`)}
              </button>
            ))}
          </div>
          <div id="studio-tab-panel" role="tabpanel" aria-label={st(`studio.tabs.${tab}`)} className="studio__panel">
            {tab === 'forms' ? <Recipes ctx={recipeContext} note={recipeNote} /> : null}
            {tab === 'screen' ? (
              <ScreenTab
                screenId={screenId}
                text={screenText}
                version={edits.editorKey}
                metaSchema={catalogue.metaSchema}
                problems={editorProblems}
                onType={edits.typeScreen}
              />
            ) : null}
            {tab === 'texts' ? (
              <TextsTab
                files={languageFiles}
                file={currentTextsFile}
                onFile={setTextsFile}
                text={edits.localeText}
                version={edits.editorKey}
                problems={editorProblems}
                onType={edits.typeLocale}
              />
            ) : null}
            {tab === 'table' ? (
              <TextTable
                key={tableKey}
                ctx={{ texts: view?.locales ?? {}, languages: catalogue.languages, localeFile: edits.localeText, apply }}
                textKey={tableKey}
                onKey={setTableKey}
                keys={defaultKeys}
              />
            ) : null}
          </div>
          <DraftBar draft={draft} onDiscard={reset} />
          <ProblemList checking={check.checking} checked={checked !== undefined} problems={problems} pending={checked?.pending ?? []} onOpen={openText} />
        </section>
        <PreviewPane
          view={view}
          screen={screen}
          step={currentStep}
          stale={Boolean(checked && !checked.screen && view)}
          answered={checked !== undefined}
          blocked={stepBlocked}
          version={previewVersion}
          lang={lang}
          theme={theme}
          flags={flags}
          url={previewUrl}
          onApi={onApi}
          onRenderError={onRenderError}
          onRun={run}
        />
      </div>
    </div>
  );
}
