import { useCallback, useEffect, useState } from 'react';
import type { ExperimentSummary, FunnelReport } from '../../catalogue/studio-contract';
import { listExperiments, loadFunnel } from '../api';
import { Field } from '../Field';
import { Outcome } from '../Outcome';
import { useAction } from '../review/useAction';
import { st } from '../studio-i18n';
import { Experiments } from './Experiments';
import { FunnelChart } from './FunnelChart';
import { Verdict } from './Verdict';

interface FunnelViewProps {
  screens: string[];
  /** An approver starts, promotes and stops experiments. */
  canDecide: boolean;
}

/** The funnel of a screen (and version): each variant side by side, their comparison, and the screen's experiments (issue 38). */
export function FunnelView({ screens, canDecide }: FunnelViewProps) {
  const [screen, setScreen] = useState(screens.includes('login') ? 'login' : (screens[0] ?? ''));
  const [version, setVersion] = useState('');
  const [report, setReport] = useState<FunnelReport>();
  const [experiments, setExperiments] = useState<ExperimentSummary[]>([]);
  const { error, fail } = useAction<never>();
  const reload = useCallback(() => {
    setReport(undefined);
    Promise.all([loadFunnel(screen, version || undefined), listExperiments()])
      .then(([funnel, listed]) => {
        setReport(funnel);
        setExperiments(listed.experiments);
      })
      .catch(fail);
  }, [screen, version, fail]);
  useEffect(reload, [reload]);

  return (
    <section className="studio-funnel" aria-labelledby="studio-funnel-title">
      <h2 id="studio-funnel-title">{st('funnel.title')}</h2>
      <div className="studio-funnel__pickers">
        <Field id="funnel-screen" label={st('funnel.screen')}>
          <select
            id="funnel-screen"
            className="fd-input"
            value={screen}
            onChange={(e) => {
              setScreen(e.target.value);
              setVersion('');
            }}
          >
            {screens.map((id) => (
              <option key={id} value={id}>
                {id}
              </option>
            ))}
          </select>
        </Field>
        <Field id="funnel-version" label={st('funnel.version')}>
          <select id="funnel-version" className="fd-input" value={version} onChange={(e) => setVersion(e.target.value)}>
            <option value="">{st('funnel.allVersions')}</option>
            {(report?.versions ?? []).map((v) => (
              <option key={v} value={v}>
                {st('funnel.versionOption', { version: v })}
              </option>
            ))}
          </select>
        </Field>
      </div>
      <Outcome error={error} />
      {!report && !error ? <p role="status">{st('funnel.loading')}</p> : null}
      {report && report.variants.length === 0 ? <p>{st('funnel.empty')}</p> : null}
      {report?.comparison ? <Verdict comparison={report.comparison} /> : null}
      <div className="studio-funnel__variants">
        {(report?.variants ?? []).map((v) => (
          <FunnelChart key={v.variant} data={v} />
        ))}
      </div>
      <Experiments screen={screen} experiments={experiments} canDecide={canDecide} onChanged={reload} />
    </section>
  );
}
