import { useState, type FormEvent } from 'react';
import type { ExperimentStart, ExperimentSummary } from '../../catalogue/studio-contract';
import { Button } from '../../src/ui';
import { endExperiment, startExperiment } from '../api';
import { Field } from '../Field';
import { Outcome } from '../Outcome';
import { listOf, TargetFields, targetWords, type TargetText } from '../review/Target';
import { useAction } from '../review/useAction';
import { st } from '../studio-i18n';

interface ExperimentsProps {
  screen: string;
  experiments: ExperimentSummary[];
  canDecide: boolean;
  /** Something changed: the list and the funnel load again. */
  onChanged(): void;
}

const statusWords = (e: ExperimentSummary) => st(`funnel.statuses.${e.status}`, { winner: e.winner ?? '' });

/** The screen's experiments: each with its shares and status, promote and stop for an approver, and a form to start one. */
export function Experiments({ screen, experiments, canDecide, onChanged }: ExperimentsProps) {
  const action = useAction<string>();
  const mine = experiments.filter((e) => e.screen === screen);
  const end = (e: ExperimentSummary, kind: 'promote' | 'stop', winner?: string) =>
    void action.run(`${e.id}:${kind}:${winner ?? ''}`, async () => {
      await endExperiment(e.id, kind, winner);
      onChanged();
      return kind === 'promote' ? st('funnel.promoted', { variant: winner }) : st('funnel.stopped');
    });
  return (
    <section className="studio-funnel__experiments" aria-labelledby="studio-experiments">
      <h3 id="studio-experiments">{st('funnel.experiments')}</h3>
      {mine.length === 0 ? <p>{st('funnel.noExperiments')}</p> : null}
      {mine.length > 0 ? (
        <table className="studio-funnel__table">
          <caption>{st('funnel.experimentsCaption')}</caption>
          <thead>
            <tr>
              <th scope="col">{st('funnel.id')}</th>
              <th scope="col">{st('funnel.textKey')}</th>
              <th scope="col">{st('funnel.shares')}</th>
              <th scope="col">{st('funnel.target')}</th>
              <th scope="col">{st('funnel.status')}</th>
              <th scope="col">{st('funnel.actions')}</th>
            </tr>
          </thead>
          <tbody>
            {mine.map((e) => (
              <tr key={e.id}>
                <th scope="row">{e.id}</th>
                <td>{e.textKeys.join(', ')}</td>
                <td>{e.variants.map((v) => st('funnel.share', { name: v.name, share: v.share })).join(', ')}</td>
                <td>{targetWords(e)}</td>
                <td>{statusWords(e)}</td>
                <td>
                  {e.changeId !== null ? st('funnel.rolloutOf', { change: e.changeId }) : null}
                  {canDecide && e.status === 'running' && e.changeId === null ? (
                    <>
                      {e.variants.map((v) => (
                        <Button key={v.name} variant="secondary" busy={action.busy === `${e.id}:promote:${v.name}`} onClick={() => end(e, 'promote', v.name)}>
                          {st('funnel.promote', { variant: v.name })}
                        </Button>
                      ))}
                      <Button variant="secondary" busy={action.busy === `${e.id}:stop:`} onClick={() => end(e, 'stop')}>
                        {st('funnel.stop')}
                      </Button>
                    </>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <Outcome error={action.error} done={action.done} />
      {canDecide ? <StartForm screen={screen} onStarted={onChanged} /> : <p>{st('funnel.approverOnly')}</p>}
    </section>
  );
}

/** Starts a 50/50 experiment: variant A keeps the catalogue's text, variant B shows the text typed here (English). */
function StartForm({ screen, onStarted }: { screen: string; onStarted(): void }) {
  const action = useAction<'start'>();
  const [id, setId] = useState('');
  const [textKey, setTextKey] = useState('');
  const [text, setText] = useState('');
  const [target, setTarget] = useState<TargetText>({ hosts: '', languages: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    void action.run('start', async () => {
      const variants: ExperimentStart['variants'] = [
        { name: 'A', share: 50, texts: {} },
        { name: 'B', share: 50, texts: { 'en-us': text } },
      ];
      await startExperiment({ id, screen, textKey, variants, hosts: listOf(target.hosts), languages: listOf(target.languages) });
      onStarted();
      return st('funnel.started', { id });
    });
  };
  return (
    <form className="studio-funnel__start" onSubmit={submit} aria-labelledby="studio-experiment-start">
      <h4 id="studio-experiment-start">{st('funnel.start')}</h4>
      <Field id="experiment-id" label={st('funnel.startId')} help={st('funnel.startIdHelp')}>
        <input id="experiment-id" className="fd-input" aria-describedby="experiment-id-help" value={id} required onChange={(e) => setId(e.target.value)} />
      </Field>
      <Field id="experiment-key" label={st('funnel.startKey')} help={st('funnel.startKeyHelp')}>
        <input
          id="experiment-key"
          className="fd-input"
          aria-describedby="experiment-key-help"
          value={textKey}
          required
          onChange={(e) => setTextKey(e.target.value)}
        />
      </Field>
      <Field id="experiment-text" label={st('funnel.startText')} help={st('funnel.startTextHelp')}>
        <textarea
          id="experiment-text"
          className="fd-input"
          aria-describedby="experiment-text-help"
          value={text}
          required
          onChange={(e) => setText(e.target.value)}
        />
      </Field>
      <TargetFields id="experiment-target" value={target} onChange={setTarget} />
      <Button type="submit" variant="primary" busy={action.busy === 'start'}>
        {st('funnel.startButton')}
      </Button>
      <Outcome error={action.error} done={action.done} />
    </form>
  );
}
