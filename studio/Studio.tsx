import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import i18next from 'i18next';
import type { ScreenFile, SharedOutcomes } from '../src/engine/types';
import { encodeState } from '../src/engine/state-param';
import { THEMES, DEFAULT_THEME } from '../src/app/themes';
import { Editor, type EditorProblem } from './Editor';
import { Preview, sampleUrl, type CatalogueRoute, type PreviewFlags } from './Preview';
import { Simulator, type SimCall } from './Simulator';
import { setStub } from './stub-fetch';
import { st } from './studio-i18n';

interface Catalogue {
  screens: Array<{ id: string; text: string }>;
  locales: Record<string, string>;
  languages: string[];
  metaSchema: Record<string, unknown>;
}

interface Problem extends EditorProblem {
  file: string;
  pointer: string;
  suggestion?: string;
}

interface Checked {
  problems: Problem[];
  screen: ScreenFile | null;
  locales: Record<string, Record<string, unknown>>;
  outcomes?: SharedOutcomes;
  resultCodes: Record<string, string[]>;
  routes: CatalogueRoute[];
}

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
 * The screen studio: pick a screen, edit its file and texts with schema-aware completion, see the
 * real engine render it (any language, theme, brand), simulate result codes, save through the
 * same checks as the build.
 */
export function Studio() {
  const [catalogue, setCatalogue] = useState<Catalogue>();
  const [loadError, setLoadError] = useState<string>();
  const [screenId, setScreenId] = useState('login');
  const [screenEdits, setScreenEdits] = useState<Record<string, string>>({});
  const [localeEdits, setLocaleEdits] = useState<Record<string, string>>({});
  const [editorKey, setEditorKey] = useState(0);
  const [tab, setTab] = useState<'screen' | 'texts'>('screen');
  const [textsFile, setTextsFile] = useState<string>();
  const [lang, setLang] = useState('en-us');
  const [theme, setTheme] = useState<string>(DEFAULT_THEME);
  const [flags, setFlags] = useState<PreviewFlags>({ branded: false, production: false, selfRegistrationEnabled: true });
  const [step, setStep] = useState<string>();
  const [url, setUrl] = useState<string>();
  const [checked, setChecked] = useState<Checked>();
  const [checking, setChecking] = useState(false);
  const [previewVersion, setPreviewVersion] = useState(0);
  const [saveStatus, setSaveStatus] = useState<string>();

  useEffect(() => {
    fetch(`${API}/catalogue`).then(
      async (r) => {
        if (!r.ok) throw new Error(`HTTP ${r.status}`);
        const data = (await r.json()) as Catalogue;
        setCatalogue(data);
        if (!data.screens.some((s) => s.id === 'login')) setScreenId(data.screens[0]?.id ?? '');
      },
      (error: unknown) => setLoadError(String(error)),
    ).catch((error: unknown) => setLoadError(String(error)));
  }, []);

  const original = catalogue?.screens.find((s) => s.id === screenId)?.text ?? '';
  const screenText = screenEdits[screenId] ?? original;
  const localeText = (key: string) => localeEdits[key] ?? catalogue?.locales[key] ?? '';
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
          setChecking(false);
          setPreviewVersion((v) => v + 1);
        },
        (error: unknown) => {
          if (mine !== sequence.current) return;
          setChecking(false);
          setChecked({ problems: [{ file: '', pointer: '', message: String(error) }], screen: null, locales: {}, resultCodes: {}, routes: [] });
        },
      );
    }, 350);
    return () => clearTimeout(timer);
  }, [catalogue, screenId, screenText, changedLocales]);

  const screen = checked?.screen && checked.screen.id === screenId ? checked.screen : undefined;
  const steps = screen ? Object.keys(screen.steps) : [];
  const currentStep = step && steps.includes(step) ? step : screen?.initialStep;
  const previewUrl = url ?? (screen ? sampleUrl(screen, encodeState) : '/');

  const selectScreen = (id: string) => {
    if (id === screenId) return;
    setScreenId(id);
    setStep(undefined);
    setUrl(undefined);
    setChecked(undefined);
    setTextsFile(undefined);
    setEditorKey((k) => k + 1);
  };

  const languageFiles = useMemo(() => Object.keys(catalogue?.locales ?? {}).filter((k) => k.startsWith(`${lang}/`)), [catalogue, lang]);
  const currentTextsFile = textsFile && languageFiles.includes(textsFile) ? textsFile : (languageFiles.find((k) => k === `${lang}/${screenId}.json`) ?? languageFiles[0]);

  const previewT = useMemo(() => {
    const instance = i18next.createInstance();
    void instance.init({
      resources: Object.fromEntries(Object.entries(checked?.locales ?? {}).map(([l, r]) => [l, { translation: r }])),
      lng: lang,
      fallbackLng: 'en-us',
      lowerCaseLng: true,
      keySeparator: '.',
      nsSeparator: false,
      interpolation: { escapeValue: false },
      initAsync: false,
    });
    return (key: string, values?: Record<string, unknown>) => instance.t(key, values ?? {});
  }, [checked?.locales, lang]);

  const run = useCallback((call: SimCall, code: string) => {
    setStub(call.call.operation, { code, resultFrom: call.call.resultFrom });
    if (call.kind === 'submit') {
      document.querySelector<HTMLButtonElement>('[data-testid="studio-preview"] form button[type="submit"]')?.click();
    } else if (call.kind === 'enter') {
      setPreviewVersion((v) => v + 1);
    }
  }, []);

  const save = async () => {
    setSaveStatus(st('studio.saving'));
    try {
      const { status, data } = await postJson<{ saved: boolean; written?: string[]; problems?: Problem[]; message?: string }>(`${API}/save`, {
        screenId,
        screen: screenText,
        locales: changedLocales,
      });
      if (status === 422) {
        setSaveStatus(st('studio.saveRefused'));
        if (data.problems) setChecked((c) => (c ? { ...c, problems: data.problems ?? [] } : c));
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
      setSaveStatus(st('studio.saved', { files: (data.written ?? []).join(', ') }));
    } catch (error) {
      setSaveStatus(st('studio.saveFailed', { reason: String(error) }));
    }
  };

  const reset = () => {
    setScreenEdits((e) => Object.fromEntries(Object.entries(e).filter(([id]) => id !== screenId)));
    setLocaleEdits({});
    setEditorKey((k) => k + 1);
    setSaveStatus(undefined);
  };

  if (loadError) return <p role="alert">{st('studio.loadFailed', { reason: loadError })}</p>;
  if (!catalogue) return <p role="status">{st('studio.loading')}</p>;

  const problems = checked?.problems ?? [];
  const editorProblems = problems.filter((p) => (tab === 'screen' ? p.file === `screens/${screenId}.json` : p.file === `locales/${currentTextsFile}`));

  return (
    <div className="studio">
      <div className="studio__bar">
        <h1>{st('studio.title')}</h1>
        <label>
          {st('studio.screen')}
          <select value={screenId} onChange={(e) => selectScreen(e.target.value)} data-testid="studio-screen">
            {catalogue.screens.map((s) => <option key={s.id} value={s.id}>{s.id}</option>)}
          </select>
        </label>
        <label>
          {st('studio.step')}
          <select value={currentStep ?? ''} onChange={(e) => { setStep(e.target.value); setPreviewVersion((v) => v + 1); }} data-testid="studio-step">
            {steps.map((s) => <option key={s} value={s}>{s}</option>)}
          </select>
        </label>
        <label>
          {st('studio.language')}
          <select value={lang} onChange={(e) => setLang(e.target.value)} data-testid="studio-language">
            {catalogue.languages.map((l) => <option key={l} value={l}>{l}</option>)}
          </select>
        </label>
        <label>
          {st('studio.theme')}
          <select value={theme} onChange={(e) => setTheme(e.target.value)} data-testid="studio-theme">
            {THEMES.map((th) => <option key={th} value={th}>{th}</option>)}
          </select>
        </label>
        <label>
          {st('studio.brand')}
          <select value={flags.branded ? 'branded' : 'default'} onChange={(e) => { setFlags((f) => ({ ...f, branded: e.target.value === 'branded' })); }} data-testid="studio-brand">
            <option value="default">{st('studio.brandDefault')}</option>
            <option value="branded">{st('studio.brandBranded')}</option>
          </select>
        </label>
        <label>
          {st('studio.environment')}
          <select value={flags.production ? 'production' : 'development'} onChange={(e) => setFlags((f) => ({ ...f, production: e.target.value === 'production' }))} data-testid="studio-environment">
            <option value="development">{st('studio.envDevelopment')}</option>
            <option value="production">{st('studio.envProduction')}</option>
          </select>
        </label>
        <label className="studio__check">
          <input type="checkbox" checked={flags.selfRegistrationEnabled} onChange={(e) => setFlags((f) => ({ ...f, selfRegistrationEnabled: e.target.checked }))} />
          {st('studio.selfRegistration')}
        </label>
        <label>
          {st('studio.url')}
          <input type="text" value={previewUrl} size={28} onChange={(e) => setUrl(e.target.value)} onBlur={() => setPreviewVersion((v) => v + 1)} data-testid="studio-url" />
        </label>
      </div>
      <div className="studio__main">
        <section className="studio__left" aria-label={st('studio.tabScreen')}>
          <div className="studio__tabs" role="tablist">
            <button type="button" role="tab" aria-selected={tab === 'screen'} onClick={() => setTab('screen')} data-testid="studio-tab-screen">{st('studio.tabScreen')}</button>
            <button type="button" role="tab" aria-selected={tab === 'texts'} onClick={() => setTab('texts')} data-testid="studio-tab-texts">{st('studio.tabTexts')}</button>
            {tab === 'texts' ? (
              <label>
                {st('studio.textsFile')}{' '}
                <select value={currentTextsFile} onChange={(e) => setTextsFile(e.target.value)} data-testid="studio-texts-file">
                  {languageFiles.map((k) => <option key={k} value={k}>{k}</option>)}
                </select>
              </label>
            ) : null}
          </div>
          {tab === 'screen' ? (
            <Editor
              key={`screen-${screenId}-${editorKey}`}
              initial={screenText}
              schema={catalogue.metaSchema}
              problems={editorProblems}
              label={`screens/${screenId}.json`}
              onChange={(text) => setScreenEdits((e) => ({ ...e, [screenId]: text }))}
            />
          ) : currentTextsFile ? (
            <Editor
              key={`texts-${currentTextsFile}-${editorKey}`}
              initial={localeText(currentTextsFile)}
              problems={editorProblems}
              label={`locales/${currentTextsFile}`}
              onChange={(text) => setLocaleEdits((e) => ({ ...e, [currentTextsFile]: text }))}
            />
          ) : null}
          <div className="studio__actions">
            <button type="button" onClick={() => void save()} data-testid="studio-save">{st('studio.save')}</button>
            <button type="button" onClick={reset}>{st('studio.reset')}</button>
            <span className="studio__status" role="status" data-testid="studio-save-status">{saveStatus}</span>
          </div>
          <div data-testid="studio-problems">
            {checking && !checked ? <p>{st('studio.checking')}</p> : null}
            {checked && problems.length === 0 ? <p className="studio__clean">{st('studio.clean')}</p> : null}
            {problems.length > 0 ? (
              <>
                <h2>{st('studio.problems', { count: problems.length })}</h2>
                <ul className="studio__problems">
                  {problems.map((p, i) => <li key={i}>{formatProblem(p)}</li>)}
                </ul>
              </>
            ) : null}
          </div>
        </section>
        <section className="studio__right" aria-label={st('studio.preview')}>
          <h2>{st('studio.preview')}</h2>
          {screen && currentStep ? (
            <Preview
              key={previewVersion}
              screen={screen}
              step={currentStep}
              locales={checked?.locales ?? {}}
              lang={lang}
              theme={theme}
              flags={flags}
              url={previewUrl}
              routes={checked?.routes ?? []}
              outcomes={checked?.outcomes ?? NO_OUTCOMES}
            />
          ) : checked ? (
            <p role="alert">{st('studio.previewUnavailable')}</p>
          ) : (
            <p>{st('studio.checking')}</p>
          )}
          <h2>{st('studio.simulate')}</h2>
          {screen && currentStep ? (
            <Simulator screen={screen} step={currentStep} resultCodes={checked?.resultCodes ?? {}} routes={checked?.routes ?? []} flags={flags} outcomes={checked?.outcomes ?? NO_OUTCOMES} translate={previewT} onRun={run} />
          ) : null}
        </section>
      </div>
    </div>
  );
}
