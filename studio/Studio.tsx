import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import i18next from 'i18next';
import { type ScreenFile, type SharedOutcomes, encodeState, type ScreenApi } from '../src/engine';
import { THEMES, DEFAULT_THEME } from '../src/app/themes';
import type { PendingTranslation } from '../catalogue/check/pending';
import { Editor } from './Editor';
import { Preview, sampleUrl, type CatalogueRoute, type PreviewFlags } from './Preview';
import { Simulator, type SimCall } from './Simulator';
import { setStub } from './stub-fetch';
import { st } from './studio-i18n';
import { Control } from './recipes/Control';
import { Recipes } from './recipes/Recipes';
import { parseObject, type LocaleTexts } from './recipes/edits';
import type { RecipeContext } from './recipes/context';
import { PendingList, TextTable } from './TextTable';
import { renderErrorProblem, renderProblems, type StudioProblem } from './render-problems';
import { flattenKeys } from '../catalogue/check/suggest';

interface Catalogue {
  screens: Array<{ id: string; text: string }>;
  locales: Record<string, string>;
  languages: string[];
  metaSchema: Record<string, unknown>;
}

type Problem = StudioProblem;

interface Checked {
  problems: Problem[];
  /** Texts in en-us that some languages lack: listed, not blocking. */
  pending: PendingTranslation[];
  screen: ScreenFile | null;
  locales: Record<string, Record<string, unknown>>;
  outcomes?: SharedOutcomes;
  resultCodes: Record<string, string[]>;
  routes: CatalogueRoute[];
}

/** The server's rebuild of the running app after a save (server/routes/devStudio.ts PublishStatus). */
interface PublishStatus {
  state: 'off' | 'idle' | 'running' | 'done' | 'failed';
  version: number;
  command: string;
  output?: string;
}

interface SaveAnswer {
  saved: boolean;
  written?: string[];
  problems?: Problem[];
  pending?: PendingTranslation[];
  publish?: PublishStatus;
  message?: string;
}

type Tab = 'forms' | 'screen' | 'texts' | 'table';
const TABS: Tab[] = ['forms', 'screen', 'texts', 'table'];

/** Until the check has answered: no shared outcomes but the generic error for everything. */
const NO_OUTCOMES: SharedOutcomes = { defaults: {}, visitorDefaults: {}, blocks: {}, unhandled: { error: 'common.errors.unexpected', report: true } };

const API = '/dev/studio/api';

async function postJson<T>(url: string, body: unknown): Promise<{ status: number; data: T }> {
  const response = await fetch(url, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, data: (await response.json()) as T };
}

function formatProblem(p: Problem): string {
  const at = p.line !== undefined ? `:${p.line}:${p.column ?? 1}` : '';
  return `${p.file}${at}${p.pointer ? ` at ${p.pointer}` : ''}: ${p.message}`;
}

/**
 * The screen studio: pick a screen, change it with forms for the common recipes or in the raw JSON,
 * edit a text in all languages at once, see the real engine render it (any language, theme, brand),
 * simulate result codes, save through the same checks as the build; a save is rebuilt into the
 * running app.
 */
export function Studio() {
  const [catalogue, setCatalogue] = useState<Catalogue>();
  const [loadError, setLoadError] = useState<string>();
  const [screenId, setScreenId] = useState('login');
  const [screenEdits, setScreenEdits] = useState<Record<string, string>>({});
  const [localeEdits, setLocaleEdits] = useState<LocaleTexts>({});
  const [editorKey, setEditorKey] = useState(0);
  const [tab, setTab] = useState<Tab>('forms');
  const [textsFile, setTextsFile] = useState<string>();
  const [tableKey, setTableKey] = useState('');
  const [lang, setLang] = useState('en-us');
  const [theme, setTheme] = useState<string>(DEFAULT_THEME);
  const [flags, setFlags] = useState<PreviewFlags>({ branded: false, production: false, selfRegistrationEnabled: true });
  const [step, setStep] = useState<string>();
  const [url, setUrl] = useState<string>();
  const [checked, setChecked] = useState<Checked>();
  // The last answer whose screen parsed: the steps, preview and forms stay while a syntax error is fixed.
  const [good, setGood] = useState<Checked>();
  const [checking, setChecking] = useState(false);
  const [previewVersion, setPreviewVersion] = useState(0);
  const [renderError, setRenderError] = useState<{ version: number; message: string }>();
  const [saveStatus, setSaveStatus] = useState<string>();
  const [recipeNote, setRecipeNote] = useState<string>();
  const [publish, setPublish] = useState<PublishStatus>();
  const [liveRoute, setLiveRoute] = useState<string>();
  const screenApi = useRef<ScreenApi>(undefined);

  useEffect(() => {
    fetch(`${API}/catalogue`)
      .then(
        async (r) => {
          if (!r.ok) throw new Error(`HTTP ${r.status}`);
          const data = (await r.json()) as Catalogue;
          setCatalogue(data);
          if (!data.screens.some((s) => s.id === 'login')) setScreenId(data.screens[0]?.id ?? '');
        },
        (error: unknown) => setLoadError(String(error)),
      )
      .catch((error: unknown) => setLoadError(String(error)));
  }, []);

  const original = catalogue?.screens.find((s) => s.id === screenId)?.text ?? '';
  const screenText = screenEdits[screenId] ?? original;
  const localeText = useCallback((key: string): string | undefined => localeEdits[key] ?? catalogue?.locales[key], [localeEdits, catalogue]);
  const changedLocales = useMemo(
    () => Object.fromEntries(Object.entries(localeEdits).filter(([key, text]) => catalogue?.locales[key] !== text)),
    [localeEdits, catalogue],
  );

  // Every edit is checked by the server on a temporary copy (debounced); the answer drives the preview.
  const sequence = useRef(0);
  useEffect(() => {
    if (!catalogue || !screenId) return;
    const mine = ++sequence.current;
    setChecking(true);
    const timer = setTimeout(() => {
      postJson<Checked>(`${API}/preview`, { screenId, screen: screenText, locales: changedLocales }).then(
        ({ data }) => {
          if (mine !== sequence.current) return;
          setChecked(data);
          if (data.screen) {
            setGood(data);
            setPreviewVersion((v) => v + 1);
          }
          setChecking(false);
        },
        (error: unknown) => {
          if (mine !== sequence.current) return;
          setChecking(false);
          setChecked({ problems: [{ file: '', pointer: '', message: String(error) }], pending: [], screen: null, locales: {}, resultCodes: {}, routes: [] });
        },
      );
    }, 350);
    return () => clearTimeout(timer);
  }, [catalogue, screenId, screenText, changedLocales]);

  // While the rebuild of the running app runs, ask how it went.
  useEffect(() => {
    if (publish?.state !== 'running') return;
    const timer = setInterval(() => {
      fetch(`${API}/publish`).then(
        async (r) => setPublish((await r.json()) as PublishStatus),
        () => undefined,
      );
    }, 1000);
    return () => clearInterval(timer);
  }, [publish?.state]);

  const view = good?.screen && good.screen.id === screenId ? good : undefined;
  const screen = view?.screen ?? undefined;
  const stale = Boolean(checked && !checked.screen && view);
  const steps = screen ? Object.keys(screen.steps) : [];
  const currentStep = step && steps.includes(step) ? step : screen?.initialStep;
  const previewUrl = url ?? (screen ? sampleUrl(screen, encodeState) : '/');

  const selectScreen = (id: string) => {
    if (id === screenId) return;
    setScreenId(id);
    setStep(undefined);
    setUrl(undefined);
    setChecked(undefined);
    setGood(undefined);
    setTextsFile(undefined);
    setRecipeNote(undefined);
    setEditorKey((k) => k + 1);
  };

  const languageFiles = useMemo(() => Object.keys(catalogue?.locales ?? {}).filter((k) => k.startsWith(`${lang}/`)), [catalogue, lang]);
  const currentTextsFile =
    textsFile && languageFiles.includes(textsFile) ? textsFile : (languageFiles.find((k) => k === `${lang}/${screenId}.json`) ?? languageFiles[0]);

  const previewT = useMemo(() => {
    const instance = i18next.createInstance();
    void instance.init({
      resources: Object.fromEntries(Object.entries(view?.locales ?? {}).map(([l, r]) => [l, { translation: r }])),
      lng: lang,
      fallbackLng: 'en-us',
      lowerCaseLng: true,
      keySeparator: '.',
      nsSeparator: false,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    return (key: string, values?: Record<string, unknown>) => instance.t(key, values ?? {});
  }, [view?.locales, lang]);

  // "Run in preview" answers the call with the code and runs it through the screen's API: a submit
  // without the form's validation, so an empty form shows the simulated result, not field errors.
  const run = useCallback((call: SimCall, code: string) => {
    setStub(call.call.operation, { code, resultFrom: call.call.resultFrom });
    if (call.kind === 'submit') void screenApi.current?.submit();
    else if (call.kind === 'button') void screenApi.current?.runCall(call.call);
    else if (call.kind === 'enter') setPreviewVersion((v) => v + 1);
  }, []);
  const onApi = useCallback((api: ScreenApi) => {
    screenApi.current = api;
  }, []);
  const version = useRef(previewVersion);
  version.current = previewVersion;
  const onRenderError = useCallback((message: string) => {
    setRenderError((known) => (known?.version === version.current && known.message === message ? known : { version: version.current, message }));
  }, []);

  const apply = useCallback(
    (edit: { screen?: string; locales?: LocaleTexts }, done: string) => {
      if (edit.screen !== undefined) {
        const text = edit.screen;
        setScreenEdits((e) => ({ ...e, [screenId]: text }));
      }
      if (edit.locales) {
        const texts = edit.locales;
        setLocaleEdits((e) => ({
          ...e,
          ...Object.fromEntries(Object.entries(texts).filter(([file, text]) => (e[file] ?? catalogue?.locales[file]) !== text)),
        }));
      }
      setEditorKey((k) => k + 1);
      setRecipeNote(done);
      setSaveStatus(undefined);
    },
    [screenId, catalogue],
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
            localeFile: localeText,
            languages: catalogue.languages,
            resultCodes: view?.resultCodes ?? {},
            routes: view?.routes ?? [],
            outcomes: view?.outcomes ?? NO_OUTCOMES,
            apply,
            showText: openText,
          }
        : undefined,
    [raw, currentStep, catalogue, screenId, screenText, screen, view, localeText, apply, openText],
  );
  const englishKeys = useMemo(() => flattenKeys(view?.locales['en-us'] ?? {}), [view?.locales]);

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
    if (renderBlocked) {
      setSaveStatus(st('studio.saveRefused'));
      return;
    }
    setSaveStatus(st('studio.saving'));
    try {
      const { status, data } = await postJson<SaveAnswer>(`${API}/save`, { screenId, screen: screenText, locales: changedLocales });
      if (status === 422) {
        setSaveStatus(st('studio.saveRefused'));
        if (data.problems) setChecked((c) => (c ? { ...c, problems: data.problems ?? [], pending: data.pending ?? c.pending } : c));
        return;
      }
      if (status !== 200 || !data.saved) throw new Error(data.message ?? `HTTP ${status}`);
      setCatalogue((c) =>
        c
          ? {
              ...c,
              screens: c.screens.map((s) => (s.id === screenId ? { ...s, text: screenText } : s)),
              locales: { ...c.locales, ...changedLocales },
            }
          : c,
      );
      setScreenEdits((e) => Object.fromEntries(Object.entries(e).filter(([id]) => id !== screenId)));
      setLocaleEdits({});
      setRecipeNote(undefined);
      setSaveStatus(
        st('studio.saved', { files: (data.written ?? []).join(', ') }) +
          ((data.pending?.length ?? 0) > 0 ? ` ${st('studio.savedPending', { count: data.pending?.length ?? 0 })}` : ''),
      );
      setPublish(data.publish);
      setLiveRoute(screen ? sampleUrl(screen, encodeState) : undefined);
    } catch (error) {
      setSaveStatus(st('studio.saveFailed', { reason: String(error) }));
    }
  };

  const reset = () => {
    setScreenEdits((e) => Object.fromEntries(Object.entries(e).filter(([id]) => id !== screenId)));
    setLocaleEdits({});
    setEditorKey((k) => k + 1);
    setSaveStatus(undefined);
    setRecipeNote(undefined);
  };

  if (loadError) return <p role="alert">{st('studio.loadFailed', { reason: loadError })}</p>;
  if (!catalogue) return <p role="status">{st('studio.loading')}</p>;

  const problems = [...(checked?.problems ?? []), ...orderProblems, ...previewProblems];
  const pending = checked?.pending ?? [];
  const editorFile = tab === 'screen' ? `screens/${screenId}.json` : `locales/${currentTextsFile ?? ''}`;
  const editorProblems = problems.filter((p) => p.file === editorFile);

  return (
    <div className="studio">
      <div className="studio__bar">
        <h1>{st('studio.title')}</h1>
        <Control label={st('studio.screen')}>
          <select value={screenId} onChange={(e) => selectScreen(e.target.value)} data-testid="studio-screen">
            {catalogue.screens.map((s) => (
              <option key={s.id} value={s.id}>
                {s.id}
              </option>
            ))}
          </select>
        </Control>
        <Control label={st('studio.step')}>
          <select
            value={currentStep ?? ''}
            onChange={(e) => {
              setStep(e.target.value);
              setPreviewVersion((v) => v + 1);
            }}
            data-testid="studio-step"
          >
            {steps.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </Control>
        <Control label={st('studio.language')}>
          <select value={lang} onChange={(e) => setLang(e.target.value)} data-testid="studio-language">
            {catalogue.languages.map((l) => (
              <option key={l} value={l}>
                {l}
              </option>
            ))}
          </select>
        </Control>
        <Control label={st('studio.theme')}>
          <select value={theme} onChange={(e) => setTheme(e.target.value)} data-testid="studio-theme">
            {THEMES.map((th) => (
              <option key={th} value={th}>
                {th}
              </option>
            ))}
          </select>
        </Control>
        <Control label={st('studio.brand')}>
          <select
            value={flags.branded ? 'branded' : 'default'}
            onChange={(e) => {
              setFlags((f) => ({ ...f, branded: e.target.value === 'branded' }));
            }}
            data-testid="studio-brand"
          >
            <option value="default">{st('studio.brandDefault')}</option>
            <option value="branded">{st('studio.brandBranded')}</option>
          </select>
        </Control>
        <Control label={st('studio.environment')}>
          <select
            value={flags.production ? 'production' : 'development'}
            onChange={(e) => setFlags((f) => ({ ...f, production: e.target.value === 'production' }))}
            data-testid="studio-environment"
          >
            <option value="development">{st('studio.envDevelopment')}</option>
            <option value="production">{st('studio.envProduction')}</option>
          </select>
        </Control>
        <label className="studio__check">
          <input
            type="checkbox"
            checked={flags.selfRegistrationEnabled}
            onChange={(e) => setFlags((f) => ({ ...f, selfRegistrationEnabled: e.target.checked }))}
          />
          {st('studio.selfRegistration')}
        </label>
        <Control label={st('studio.url')}>
          <input
            type="text"
            value={previewUrl}
            size={28}
            onChange={(e) => setUrl(e.target.value)}
            onBlur={() => setPreviewVersion((v) => v + 1)}
            data-testid="studio-url"
          />
        </Control>
      </div>
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
              <Editor
                key={`screen-${screenId}-${editorKey}`}
                initial={screenText}
                schema={catalogue.metaSchema}
                problems={editorProblems}
                label={`screens/${screenId}.json`}
                onChange={(text) => setScreenEdits((e) => ({ ...e, [screenId]: text }))}
              />
            ) : null}
            {tab === 'texts' ? (
              <>
                <Control label={st('studio.textsFile')}>
                  <select value={currentTextsFile} onChange={(e) => setTextsFile(e.target.value)} data-testid="studio-texts-file">
                    {languageFiles.map((k) => (
                      <option key={k} value={k}>
                        {k}
                      </option>
                    ))}
                  </select>
                </Control>
                {currentTextsFile ? (
                  <Editor
                    key={`texts-${currentTextsFile}-${editorKey}`}
                    initial={localeText(currentTextsFile) ?? ''}
                    problems={editorProblems}
                    label={`locales/${currentTextsFile}`}
                    onChange={(text) => setLocaleEdits((e) => ({ ...e, [currentTextsFile]: text }))}
                  />
                ) : null}
              </>
            ) : null}
            {tab === 'table' ? (
              <TextTable
                key={tableKey}
                ctx={{ texts: view?.locales ?? {}, languages: catalogue.languages, localeFile: localeText, apply }}
                textKey={tableKey}
                onKey={setTableKey}
                keys={englishKeys}
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
          <div data-testid="studio-problems">
            {checking && !checked ? <p>{st('studio.checking')}</p> : null}
            {checked && problems.length === 0 ? (
              <p className="studio__clean">{pending.length > 0 ? st('studio.cleanPending', { count: pending.length }) : st('studio.clean')}</p>
            ) : null}
            {problems.length > 0 ? (
              <>
                <h2>{st('studio.problems', { count: problems.length })}</h2>
                <ul className="studio__problems">
                  {problems.map((p, i) => (
                    <li key={i}>{formatProblem(p)}</li>
                  ))}
                </ul>
              </>
            ) : null}
          </div>
          <PendingList pending={pending} onOpen={openText} />
        </section>
        <section className="studio__right" aria-label={st('studio.preview')}>
          <h2>{st('studio.preview')}</h2>
          {stale ? (
            <p className="studio__stale" role="note">
              {st('studio.stale')}
            </p>
          ) : null}
          {screen && currentStep && stepBlocked ? (
            <p role="alert" className="studio__blocked">
              {st('studio.previewBlocked', { step: currentStep })}
            </p>
          ) : screen && currentStep ? (
            <Preview
              key={previewVersion}
              screen={screen}
              step={currentStep}
              locales={view?.locales ?? {}}
              lang={lang}
              theme={theme}
              flags={flags}
              url={previewUrl}
              routes={view?.routes ?? []}
              outcomes={view?.outcomes ?? NO_OUTCOMES}
              onApi={onApi}
              onRenderError={onRenderError}
            />
          ) : checked ? (
            <p role="alert">{st('studio.previewUnavailable')}</p>
          ) : (
            <p>{st('studio.checking')}</p>
          )}
          <h2>{st('studio.simulate')}</h2>
          {screen && currentStep ? (
            <Simulator
              screen={screen}
              step={currentStep}
              resultCodes={view?.resultCodes ?? {}}
              routes={view?.routes ?? []}
              flags={flags}
              outcomes={view?.outcomes ?? NO_OUTCOMES}
              translate={previewT}
              onRun={run}
            />
          ) : null}
        </section>
      </div>
    </div>
  );
}

/** Where the saved files stand in the running app: being rebuilt, live (with a link), or what to run. */
function PublishNote({ publish, route }: { publish: PublishStatus | undefined; route: string | undefined }) {
  if (!publish || publish.state === 'idle') return null;
  return (
    <div className="studio__publish" role="status" data-testid="studio-publish">
      {publish.state === 'running' ? <p>{st('publish.running')}</p> : null}
      {publish.state === 'done' ? (
        <p>
          {st('publish.done')}{' '}
          {route ? (
            <a href={route} target="_blank" rel="noreferrer">
              {st('publish.open', { route })}
            </a>
          ) : null}
        </p>
      ) : null}
      {publish.state === 'failed' ? (
        <>
          <p>{st('publish.failed', { command: publish.command })}</p>
          {publish.output ? <pre className="studio__plan">{publish.output}</pre> : null}
        </>
      ) : null}
      {publish.state === 'off' ? <p>{st('publish.off', { command: publish.command })}</p> : null}
    </div>
  );
}
