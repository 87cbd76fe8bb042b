import { useId, useState, type FormEvent } from 'react';
import type { ActionAnswer, ChangeDetail, RolloutRequest } from '../../catalogue/studio-contract';
import { Button } from '../../src/ui';
import { rollOut, type ChangeAction } from '../api';
import { Field } from '../Field';
import { Outcome } from '../Outcome';
import { st } from '../studio-i18n';
import { listOf, TargetFields, targetWords, type TargetText } from './Target';
import { useAction } from './useAction';

interface RolloutProps {
  change: ChangeDetail;
  /** The signed-in person is an approver: only an approver rolls out, promotes and stops. */
  approver: boolean;
  busy: ChangeAction | undefined;
  /** Promote (publish to everyone) or stop the running rollout, naming the revision shown. */
  onAct(action: ChangeAction): void;
  onChanged(answer: ActionAnswer): void;
}

/**
 * Rolling an approved change out before everyone (issue 38): a share of the visitors, or some branded
 * sites or languages, see its texts first; then an approver promotes it (published the normal way)
 * or stops it (the live texts stay). A change of more than texts is not offered it, and says why.
 */
export function Rollout({ change, approver, busy, onAct, onChanged }: RolloutProps) {
  const { running, refused, keys } = change.rollout;
  // Beside the form, not in it: the form goes once the rollout runs, and its outcome stays announced.
  const start = useAction<'start'>();
  if (change.state !== 'approved' && !running) return null;
  return (
    <section className="studio-review__rollout" aria-label={st('changes.rollout.title')}>
      <h3>{st('changes.rollout.title')}</h3>
      {running ? (
        <>
          <p>
            {st('changes.rollout.running', {
              share: running.variants.find((v) => v.name === 'B')?.share ?? 0,
              target: targetWords(running),
              screen: running.screen,
            })}
          </p>
          {approver ? (
            <div className="studio-review__actions">
              <Button variant="primary" busy={busy === 'rollout/promote'} onClick={() => onAct('rollout/promote')}>
                {st('changes.actions.rolloutPromote')}
              </Button>
              <Button variant="secondary" busy={busy === 'rollout/stop'} onClick={() => onAct('rollout/stop')}>
                {st('changes.actions.rolloutStop')}
              </Button>
            </div>
          ) : null}
        </>
      ) : refused ? (
        <p>{st(`changes.rollout.${refused.reason}`, { key: refused.key ?? '' })}</p>
      ) : approver ? (
        <RolloutForm
          change={change}
          keys={keys}
          busy={start.busy === 'start'}
          onStart={(request) =>
            void start.run('start', async () => {
              onChanged(await rollOut(change.id, request));
              return st('changes.done.rollout', { share: request.share });
            })
          }
        />
      ) : null}
      <Outcome error={start.error} done={start.done} />
      {approver ? null : <p>{st('changes.rollout.approverOnly')}</p>}
    </section>
  );
}

/** The share and target of a new rollout, naming the revision shown. */
function RolloutForm({ change, keys, busy, onStart }: { change: ChangeDetail; keys: string[]; busy: boolean; onStart(request: RolloutRequest): void }) {
  const id = useId();
  const [share, setShare] = useState('10');
  const [target, setTarget] = useState<TargetText>({ hosts: '', languages: '' });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onStart({ revision: change.revision, share: Number(share), hosts: listOf(target.hosts), languages: listOf(target.languages) });
  };
  return (
    <form onSubmit={submit}>
      <p>{st('changes.rollout.intro')}</p>
      <p>{st('changes.rollout.keys', { keys: keys.join(', ') })}</p>
      <Field id={`${id}-share`} label={st('changes.rollout.share')} help={st('changes.rollout.shareHelp')}>
        <input
          id={`${id}-share`}
          className="fd-input"
          type="number"
          min={1}
          max={100}
          required
          aria-describedby={`${id}-share-help`}
          value={share}
          onChange={(e) => setShare(e.target.value)}
        />
      </Field>
      <TargetFields id={id} value={target} onChange={setTarget} />
      <Button type="submit" variant="primary" busy={busy}>
        {st('changes.rollout.start')}
      </Button>
    </form>
  );
}
