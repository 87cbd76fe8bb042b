import { useCallback, useMemo, useRef, useState } from 'react';
import { NO_SHARED_OUTCOMES } from '../catalogue/language/outcome-lookup';
import { flattenKeys } from '../catalogue/check/suggest';
import { DEFAULT_LANGUAGE } from '../src/app/languages';
import { DEFAULT_THEME } from '../src/app/themes';
import { encodeState, type ScreenApi } from '../src/engine';
import { saveEdit } from './api';
import { sampleUrl, type PreviewFlags } from './Preview';
import { PreviewPane } from './PreviewPane';
import { previewLanguages, textsLanguage } from './preview-texts';
import { Recipes } from './recipes/Recipes';
import { parseObject, type LocaleTexts } from './recipes/edits';
import type { RecipeContext } from './recipes/context';
import { renderErrorProblem, renderProblems } from './render-problems';
import type { SimCall } from './Simulator';
import { useCatalogue } from './state/useCatalogue';
import { useCheck } from './state/useCheck';
import { useEdits } from './state/useEdits';
import { usePublish } from './state/usePublish';
import { ProblemList, PublishNote } from './StatusPanel';
import { setStub } from './stub-fetch';
import { st } from './studio-i18n';
import { ScreenTab } from './tabs/ScreenTab';
import { TextsTab } from './tabs/TextsTab';
import { TextTable } from './TextTable';
import { TopBar } from './TopBar';

type Tab = 'forms' | 'screen' | 'texts' | 'table';
const TABS: Tab[] = ['forms', 'screen', 'texts', 'table'];

/**
 * The screen studio: pick a screen, change it with forms for the common recipes or in the raw JSON,
 * edit a text in all languages at once, see the real engine render it (any language, theme, brand),
 * simulate result codes, save through the same checks as the build; a save is rebuilt into the
 * running app. The files and their edits, the server's check and the rebuild are hooks (./state);
 * the bar, the tabs, the status and the preview are components.
 */
export function Studio() {
  const { catalogue, loadError, saved } = useCatalogue();
  const edits = useEdits(catalogue);
  const { screenId, screenText } = edits;
  const check = useCheck(catalogue, screenId, screenText, edits.changedLocales);
  const { publish, setPublish } = usePublish();
  const [tab, setTab] = useState<Tab>('forms');
  const [textsFile, setTextsFile] = useState<string>();
  const [tableKey, setTableKey] = useState('');
  const [lang, setLang] = useState<string>(DEFAULT_LANGUAGE);
  const [theme, setTheme] = useState<string>(DEFAULT_THEME);
  const [flags, setFlags] = useState<PreviewFlags>({ branded: false, production: false, selfRegistrationEnabled: true });
  const [step, setStep] = useState<string>();
  const [url, setUrl] = useState<string>();
  const [renderError, setRenderError] = useState<{ version: number; message: string }>();
  const [saveStatus, setSaveStatus] = useState<string>();
  const [recipeNote, setRecipeNote] = useState<string>();
  const [liveRoute, setLiveRoute] = useState<string>();
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
      setSaveStatus(undefined);
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

  const save = async () => {
    // What the form engine cannot render is refused here too (the server's check does not render).
    if (renderBlocked) return setSaveStatus(st('studio.saveRefused'));
    setSaveStatus(st('studio.saving'));
    try {
      const { refused, answer } = await saveEdit({ screenId, screen: screenText, locales: edits.changedLocales });
      if (refused) {
        setSaveStatus(st('studio.saveRefused'));
        return check.refused(answer.problems, answer.pending);
      }
      saved(screenId, screenText, edits.changedLocales);
      edits.discard(false);
      setRecipeNote(undefined);
      const pendingCount = answer.pending?.length ?? 0;
      setSaveStatus(
        st('studio.saved', { files: (answer.written ?? []).join(', ') }) + (pendingCount > 0 ? ` ${st('studio.savedPending', { count: pendingCount })}` : ''),
      );
      setPublish(answer.publish);
      setLiveRoute(screen ? sampleUrl(screen, encodeState) : undefined);
    } catch (error) {
      setSaveStatus(st('studio.saveFailed', { reason: String(error) }));
    }
  };

  const reset = () => {
    edits.discard(true);
    setSaveStatus(undefined);
    setRecipeNote(undefined);
  };

  if (loadError) return <p role="alert">{st('studio.loadFailed', { reason: loadError })}</p>;
  if (!catalogue) return <p role="status">{st('studio.loading')}</p>;

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
          <div className="studio__actions">
            <button type="button" onClick={() => void save()} data-testid="studio-save">
              {st('studio.save')}
            </button>
            <button type="button" onClick={reset}>
              {st('studio.reset')}
            </button>
            <span className="studio__status" role="status" data-testid="studio-save-status">
              {saveStatus}
            </span>
          </div>
          <PublishNote publish={publish} route={liveRoute} />
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
