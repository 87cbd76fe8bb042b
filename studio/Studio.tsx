import { useCallback, useMemo, useRef, type Dispatch } from 'react';
import { flattenKeys } from '../catalogue/check/suggest';
import type { Problem } from '../catalogue/check/types';
import { DEFAULT_LANGUAGE } from '../src/app/studio-entry';
import type { CatalogueTexts, ChangeDetail } from '../catalogue/studio-contract';
import { encodeState, type ScreenApi, type ScreenFile } from '../src/engine';
import { DraftBar } from './DraftBar';
import { sampleUrl } from './Preview';
import { PreviewPane } from './PreviewPane';
import { previewLanguages, textsLanguage } from './preview-texts';
import { Recipes } from './recipes/Recipes';
import type { LocaleTexts } from './recipes/edits';
import type { RecipeContext } from './recipes/context';
import type { SimCall } from './Simulator';
import { useCheck } from './state/useCheck';
import { useDraft } from './state/useDraft';
import { useEdits } from './state/useEdits';
import { useOpening, usePreviewProblems, useRecipeContext, useRenderError } from './state/useEditorParts';
import { TABS, useStudioView, type StudioView, type StudioViewEvent, type Tab } from './state/useStudioView';
import { ProblemList } from './StatusPanel';
import { setStub } from './stub-fetch';
import { st } from './studio-i18n';
import { ScreenTab } from './tabs/ScreenTab';
import { TextsTab } from './tabs/TextsTab';
import { TextTable } from './TextTable';
import { TopBar } from './TopBar';

interface StudioProps {
  catalogue: CatalogueTexts;
  /** A change opened from the Changes view (its author goes on editing it). */
  opening?: ChangeDetail;
  /** The draft was sent for review: the Changes view shows it. */
  onReviewRequested(id: number): void;
}

interface EditPanelProps {
  tab: Tab;
  dispatch: Dispatch<StudioViewEvent>;
  edits: ReturnType<typeof useEdits>;
  catalogue: CatalogueTexts;
  recipes: RecipeContext | undefined;
  recipeNote: string | undefined;
  /** The texts files of the preview's language, and the one shown. */
  languageFiles: string[];
  textsFile: string | undefined;
  tableKey: string;
  texts: Record<string, Record<string, unknown>>;
  /** The problems of the file the tab's editor shows. */
  problems: Problem[];
  apply: RecipeContext['apply'];
}

/** The tab on show: the recipes' forms, the text table, or the screen's or a texts file's editor. */
function EditPanel({ tab, dispatch, edits, catalogue, recipes, recipeNote, languageFiles, textsFile, tableKey, texts, problems, apply }: EditPanelProps) {
  const defaultKeys = useMemo(() => flattenKeys(texts[DEFAULT_LANGUAGE] ?? {}), [texts]);
  return (
    <div id="studio-tab-panel" role="tabpanel" aria-label={st(`studio.tabs.${tab}`)} className="studio__panel">
      {tab === 'forms' ? <Recipes ctx={recipes} note={recipeNote} /> : null}
      {tab === 'screen' ? (
        <ScreenTab
          screenId={edits.screenId}
          text={edits.screenText}
          version={edits.editorKey}
          metaSchema={catalogue.metaSchema}
          problems={problems}
          onType={edits.typeScreen}
        />
      ) : null}
      {tab === 'texts' ? (
        <TextsTab
          files={languageFiles}
          file={textsFile}
          onFile={(file) => dispatch({ type: 'textsFile', file })}
          text={edits.localeText}
          version={edits.editorKey}
          problems={problems}
          onType={edits.typeLocale}
        />
      ) : null}
      {tab === 'table' ? (
        <TextTable
          key={tableKey}
          ctx={{ texts, languages: catalogue.languages, localeFile: edits.localeText, apply }}
          textKey={tableKey}
          onKey={(key) => dispatch({ type: 'tableKey', key })}
          keys={defaultKeys}
        />
      ) : null}
    </div>
  );
}

function TabList({ tab, dispatch }: { tab: Tab; dispatch: Dispatch<StudioViewEvent> }) {
  return (
    <div className="studio__tabs" role="tablist">
      {TABS.map((name) => (
        <button
          key={name}
          type="button"
          role="tab"
          aria-selected={tab === name}
          aria-controls="studio-tab-panel"
          onClick={() => dispatch({ type: 'tab', tab: name })}
          data-testid={`studio-tab-${name}`}
        >
          {st(`studio.tabs.${name}`)}
        </button>
      ))}
    </div>
  );
}

/** Where the preview opens: the address typed into the bar, else the screen's sample address. */
const previewUrl = (ui: StudioView, screen: ScreenFile | undefined) => ui.url ?? (screen ? sampleUrl(screen, encodeState) : '/');

interface StudioBarProps {
  catalogue: CatalogueTexts;
  edits: ReturnType<typeof useEdits>;
  check: ReturnType<typeof useCheck>;
  ui: StudioView;
  dispatch: Dispatch<StudioViewEvent>;
  screen: ScreenFile | undefined;
  step: string | undefined;
}

/** The top bar: the screen and its step, the preview's language, theme, site flags and address. */
function StudioBar({ catalogue, edits, check, ui, dispatch, screen, step }: StudioBarProps) {
  return (
    <TopBar
      screens={catalogue.screens.map((s) => s.id)}
      screenId={edits.screenId}
      onScreen={(id) => {
        if (id === edits.screenId) return;
        edits.selectScreen(id);
        check.forget();
        dispatch({ type: 'reopened', screen: true });
      }}
      steps={screen ? Object.keys(screen.steps) : []}
      step={step}
      onStep={(s) => {
        dispatch({ type: 'step', step: s });
        check.rerender();
      }}
      languages={previewLanguages(catalogue.languages)}
      lang={ui.lang}
      onLang={(lang) => dispatch({ type: 'lang', lang })}
      theme={ui.theme}
      onTheme={(theme) => dispatch({ type: 'theme', theme })}
      flags={ui.flags}
      onFlags={(change) => dispatch({ type: 'flags', change })}
      url={previewUrl(ui, screen)}
      onUrl={(url) => dispatch({ type: 'url', url })}
      onUrlDone={check.rerender}
    />
  );
}

/**
 * "Run in preview" answers the call with the code and runs it through the screen's API: a submit
 * without the form's validation, so an empty form shows the simulated result, not field errors.
 */
function usePreviewRun(rerender: () => void) {
  const screenApi = useRef<ScreenApi>(undefined);
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
  return { run, onApi };
}

/** The draft of this edit: saved through the server's checks, sent for review; one the preview cannot render is not saved. */
function useStudioDraft(
  catalogue: CatalogueTexts,
  edits: ReturnType<typeof useEdits>,
  check: ReturnType<typeof useCheck>,
  renderBlocked: boolean,
  dispatch: Dispatch<StudioViewEvent>,
  onReviewRequested: (id: number) => void,
) {
  const { screenId, screenText, changedLocales } = edits;
  return useDraft({
    screenId,
    screenText,
    changedLocales,
    edited: screenText !== catalogue.screens.find((s) => s.id === screenId)?.text || Object.keys(changedLocales).length > 0,
    renderBlocked,
    onRefused: check.refused,
    onReviewRequested: (id) => {
      edits.discard(true);
      dispatch({ type: 'note' });
      onReviewRequested(id);
    },
  });
}

/**
 * The studio's editor: pick a screen, change it with forms for the common recipes (or, under Advanced,
 * in its files), edit a text in all languages at once, see the real engine render it (any language,
 * theme, brand), simulate result codes, and save it as a draft through the same checks as the build.
 * A draft goes to review, then to the files once another person approved it (the Changes view). The
 * edits, the server's check, the draft and the editor's view (one reducer) are hooks (./state); the
 * bar, the tabs, the status and the preview are components.
 */
export function Studio({ catalogue, opening, onReviewRequested }: StudioProps) {
  const edits = useEdits(catalogue);
  const { screenId, screenText } = edits;
  const check = useCheck(catalogue, screenId, screenText, edits.changedLocales);
  const [ui, dispatch] = useStudioView();
  const { view, checked, previewVersion, rerender } = check;
  const screen = view?.screen ?? undefined;
  const step = ui.step && screen?.steps[ui.step] ? ui.step : screen?.initialStep;
  const textLang = textsLanguage(ui.lang);
  const languageFiles = useMemo(() => Object.keys(catalogue.locales).filter((k) => k.startsWith(`${textLang}/`)), [catalogue, textLang]);
  const textsFile =
    ui.textsFile && languageFiles.includes(ui.textsFile) ? ui.textsFile : (languageFiles.find((k) => k === `${textLang}/${screenId}.json`) ?? languageFiles[0]);
  const { run, onApi } = usePreviewRun(rerender);
  const { renderError, onRenderError } = useRenderError(previewVersion);
  const { apply: applyEdit } = edits;
  const apply = useCallback(
    (edit: { screen?: string; locales?: LocaleTexts }, done: string) => {
      applyEdit(edit);
      dispatch({ type: 'note', note: done });
    },
    [applyEdit, dispatch],
  );
  const openText = useCallback((key: string) => dispatch({ type: 'openText', key }), [dispatch]);
  const recipes = useRecipeContext(edits, catalogue, view, step, apply, openText);
  const preview = usePreviewProblems(screen, screenText, step, renderError, previewVersion);
  const draft = useStudioDraft(catalogue, edits, check, preview.problems.length > 0, dispatch, onReviewRequested);
  useOpening(opening, catalogue, edits, draft, check, () => dispatch({ type: 'reopened', screen: false }));
  const problems = [...(checked?.problems ?? []), ...preview.problems];
  const editorFile = ui.tab === 'screen' ? `screens/${screenId}.json` : `locales/${textsFile ?? ''}`;

  return (
    <div className="studio">
      <StudioBar catalogue={catalogue} edits={edits} check={check} ui={ui} dispatch={dispatch} screen={screen} step={step} />
      <div className="studio__main">
        <section className="studio__left" aria-label={st('studio.editArea')}>
          <TabList tab={ui.tab} dispatch={dispatch} />
          <EditPanel
            tab={ui.tab}
            dispatch={dispatch}
            edits={edits}
            catalogue={catalogue}
            recipes={recipes}
            recipeNote={ui.recipeNote}
            languageFiles={languageFiles}
            textsFile={textsFile}
            tableKey={ui.tableKey}
            texts={view?.locales ?? {}}
            problems={problems.filter((p) => p.file === editorFile)}
            apply={apply}
          />
          <DraftBar
            draft={draft}
            onDiscard={() => {
              edits.discard(true);
              draft.close();
              dispatch({ type: 'note' });
            }}
          />
          <ProblemList checking={check.checking} checked={checked !== undefined} problems={problems} pending={checked?.pending ?? []} onOpen={openText} />
        </section>
        <PreviewPane
          view={view}
          screen={screen}
          step={step}
          stale={Boolean(checked && !checked.screen && view)}
          answered={checked !== undefined}
          blocked={preview.stepBlocked}
          version={previewVersion}
          lang={ui.lang}
          theme={ui.theme}
          flags={ui.flags}
          url={previewUrl(ui, screen)}
          onApi={onApi}
          onRenderError={onRenderError}
          onRun={run}
        />
      </div>
    </div>
  );
}
