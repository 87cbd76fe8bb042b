import { useMemo } from 'react';
import { NO_SHARED_OUTCOMES } from '../catalogue/language/outcome-lookup';
import type { CheckedEdit } from '../catalogue/studio-contract';
import type { ScreenApi, ScreenFile } from '../src/engine';
import { Preview, type PreviewFlags } from './Preview';
import { previewI18n } from './preview-i18n';
import { Simulator, type SimCall } from './Simulator';
import { st } from './studio-i18n';

interface PreviewPaneProps {
  /** The last answer whose screen parsed (undefined before one did). */
  view: CheckedEdit | undefined;
  screen: ScreenFile | undefined;
  step: string | undefined;
  /** The last answer did not parse: the preview shows the last good one, and says so. */
  stale: boolean;
  /** Some answer has come (the preview may say it is unavailable rather than still checking). */
  answered: boolean;
  /** The form engine could not render the step: the preview says so instead of rendering. */
  blocked: boolean;
  version: number;
  lang: string;
  theme: string;
  flags: PreviewFlags;
  url: string;
  onApi(api: ScreenApi): void;
  onRenderError(message: string): void;
  onRun(call: SimCall, code: string): void;
}

/** The real engine on the edited screen, and the simulator of its calls' result codes. */
export function PreviewPane({ view, screen, step, stale, answered, blocked, version, lang, theme, flags, url, onApi, onRenderError, onRun }: PreviewPaneProps) {
  const outcomes = view?.outcomes ?? NO_SHARED_OUTCOMES;
  const routes = view?.routes ?? [];
  const translate = useMemo(() => {
    const i18n = previewI18n(view?.locales ?? {}, lang);
    return (key: string, values?: Record<string, unknown>) => i18n.t(key, values ?? {});
  }, [view?.locales, lang]);
  return (
    <section className="studio__right" aria-label={st('studio.preview')}>
      <h2>{st('studio.preview')}</h2>
      {stale ? (
        <p className="studio__stale" role="note">
          {st('studio.stale')}
        </p>
      ) : null}
      {screen && step && blocked ? (
        <p role="alert" className="studio__blocked">
          {st('studio.previewBlocked', { step })}
        </p>
      ) : screen && step ? (
        <Preview
          key={version}
          screen={screen}
          step={step}
          locales={view?.locales ?? {}}
          lang={lang}
          theme={theme}
          flags={flags}
          url={url}
          routes={routes}
          outcomes={outcomes}
          onApi={onApi}
          onRenderError={onRenderError}
        />
      ) : answered ? (
        <p role="alert">{st('studio.previewUnavailable')}</p>
      ) : (
        <p>{st('studio.checking')}</p>
      )}
      <h2>{st('studio.simulate')}</h2>
      {screen && step ? (
        <Simulator
          screen={screen}
          step={step}
          resultCodes={view?.resultCodes ?? {}}
          routes={routes}
          flags={flags}
          outcomes={outcomes}
          translate={translate}
          onRun={onRun}
        />
      ) : null}
    </section>
  );
}
