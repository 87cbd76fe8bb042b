import { useCallback, useEffect, useId, useState } from 'react';
import type { ActionAnswer, ChangeDetail, ChangeSummary, Person } from '../../catalogue/studio-contract';
import { Alert, Button } from '../../src/ui';
import { ApiError, changeAction, listChanges, loadChange, type ChangeAction } from '../api';
import { Field } from '../Field';
import { Outcome } from '../Outcome';
import { st } from '../studio-i18n';
import { errorWords, when } from './words';
import { DiffList } from './DiffList';
import { useAction } from './useAction';
import { Pictures } from './Pictures';
import { Rollout } from './Rollout';

interface ChangesViewProps {
  person: Person;
  /** The change to show first (one just saved or sent for review). */
  selected?: number;
  onSelect(id: number | undefined): void;
  textOf(key: string): string | undefined;
  /** Opens a change in the editor (its author edits it: it goes back to draft). */
  onEdit(change: ChangeDetail): void;
  /** A publish happened: the catalogue is the new version, the app is being rebuilt. */
  onPublished(answer: ActionAnswer): void;
}

const GROUPS = ['review', 'approved', 'draft', 'published'] as const;
/** The actions that decide about what the person read: they name the revision shown. */
const DECISIONS: readonly ChangeAction[] = ['approve', 'send-back', 'publish', 'rollout/promote', 'rollout/stop'];

/** Changes and their review: the list by state, and the chosen change with its diff, pictures and actions. */
export function ChangesView({ person, selected, onSelect, textOf, onEdit, onPublished }: ChangesViewProps) {
  const [changes, setChanges] = useState<ChangeSummary[]>();
  const [change, setChange] = useState<ChangeDetail>();
  const [error, setError] = useState<string>();
  // Bumped to read the chosen change again (its author saved a newer revision than the one shown).
  const [reread, setReread] = useState(0);
  const refresh = useCallback(() => {
    listChanges().then(
      (answer) => setChanges(answer.changes),
      (e: unknown) => setError(errorWords(e)),
    );
  }, []);
  useEffect(refresh, [refresh]);
  useEffect(() => {
    if (selected === undefined) return setChange(undefined);
    let current = true;
    loadChange(selected).then(
      (answer) => current && setChange(answer.change),
      (e: unknown) => current && setError(errorWords(e)),
    );
    return () => {
      current = false;
    };
  }, [selected, reread]);

  return (
    <div className="studio-review" data-testid="studio-changes">
      <nav className="studio-review__list" aria-label={st('changes.listLabel')}>
        <Outcome error={error} />
        {changes?.length === 0 ? <p>{st('changes.none')}</p> : null}
        {GROUPS.map((state) => {
          const group = (changes ?? []).filter((c) => c.state === state);
          if (group.length === 0) return null;
          return (
            <section key={state} aria-label={st(`changes.groups.${state}`)}>
              <h2>{st(`changes.groups.${state}`)}</h2>
              <ul>
                {group.map((c) => (
                  <li key={c.id}>
                    <button type="button" className="studio-review__item" aria-current={c.id === selected || undefined} onClick={() => onSelect(c.id)}>
                      <span className="studio-review__note">{c.note || st('changes.untitled', { screen: c.screenId })}</span>
                      <span className="studio-review__meta">{st('changes.meta', { screen: c.screenId, author: c.author, when: when(c.updatedAt) })}</span>
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          );
        })}
      </nav>
      {change ? (
        <ChangePanel
          key={change.id}
          change={change}
          person={person}
          textOf={textOf}
          onEdit={onEdit}
          onChanged={(answer) => {
            if (answer.change) setChange(answer.change);
            refresh();
            if (answer.version !== undefined) onPublished(answer);
          }}
          onStale={() => {
            setReread((n) => n + 1);
            refresh();
          }}
        />
      ) : (
        <p className="studio-review__empty">{st('changes.pick')}</p>
      )}
    </div>
  );
}

interface ChangeActionsProps {
  change: ChangeDetail;
  /** The change is the signed-in person's own. */
  mine: boolean;
  /** The signed-in person may decide on it (an approver, not its author). */
  reviewer: boolean;
  busy: ChangeAction | undefined;
  onAct(action: ChangeAction, comment?: string): void;
  onEdit(): void;
}

/** What the signed-in person may do with the change: ask for review, publish, edit, discard; an approver's decision with a comment. */
function ChangeActions({ change, mine, reviewer, busy, onAct, onEdit }: ChangeActionsProps) {
  const id = useId();
  const [comment, setComment] = useState('');
  // A change whose rollout runs is promoted or stopped before anything else (the server says so too).
  const open = mine && change.state !== 'published' && change.state !== 'discarded' && !change.rollout.running;
  return (
    <>
      <div className="studio-review__actions">
        {mine && change.state === 'draft' ? (
          <Button variant="primary" busy={busy === 'review'} onClick={() => onAct('review')}>
            {st('changes.actions.review')}
          </Button>
        ) : null}
        {change.state === 'approved' && !change.rollout.running ? (
          <Button variant="primary" busy={busy === 'publish'} onClick={() => onAct('publish')}>
            {st('changes.actions.publish')}
          </Button>
        ) : null}
        {open ? (
          <Button variant="secondary" onClick={onEdit}>
            {st('changes.actions.edit')}
          </Button>
        ) : null}
        {open ? (
          <Button variant="tertiary" busy={busy === 'discard'} onClick={() => onAct('discard')}>
            {st('changes.actions.discard')}
          </Button>
        ) : null}
      </div>
      {reviewer && change.state === 'review' ? (
        <section className="studio-review__decide" aria-label={st('changes.decide')}>
          <h3>{st('changes.decide')}</h3>
          <Field id={`${id}-comment`} label={st('changes.comment')}>
            <textarea id={`${id}-comment`} className="fd-input" rows={3} value={comment} onChange={(e) => setComment(e.target.value)} />
          </Field>
          <div className="studio-review__actions">
            <Button variant="primary" busy={busy === 'approve'} onClick={() => onAct('approve', comment)}>
              {st('changes.actions.approve')}
            </Button>
            <Button variant="secondary" busy={busy === 'send-back'} onClick={() => onAct('send-back', comment)}>
              {st('changes.actions.sendBack')}
            </Button>
          </div>
        </section>
      ) : null}
    </>
  );
}

function ChangePanel(props: {
  change: ChangeDetail;
  person: Person;
  textOf(key: string): string | undefined;
  onEdit(change: ChangeDetail): void;
  onChanged(answer: ActionAnswer): void;
  /** A decision was refused: the change is at a newer revision than the one shown (read it again). */
  onStale(): void;
}) {
  const { change, person } = props;
  const id = useId();
  const { busy, error, done, run } = useAction<ChangeAction>();
  const mine = change.author === person.email;
  const reviewer = person.role === 'approver' && !mine;
  const sentBack = change.state === 'draft' ? [...change.events].reverse().find((e) => e.action === 'sent-back' || e.action === 'saved') : undefined;

  const act = (action: ChangeAction, comment?: string) =>
    run(action, async () => {
      const review = action === 'approve' || action === 'send-back';
      // A decision names the revision this page shows: the server refuses it if the author saved since.
      const details = { ...(DECISIONS.includes(action) ? { revision: change.revision } : {}), ...(review ? { comment: comment?.trim() ?? '' } : {}) };
      try {
        const answer = await changeAction(change.id, action, details);
        props.onChanged(answer);
        return st(`changes.done.${action}`, { version: answer.version });
      } catch (e) {
        // Its words say so (errors.STALE_REVISION); the panel then shows the revision there is now.
        if (e instanceof ApiError && e.code === 'STALE_REVISION') props.onStale();
        throw e;
      }
    });

  return (
    <article className="studio-review__change" aria-labelledby={`${id}-h`} data-testid="studio-change" data-state={change.state}>
      <h2 id={`${id}-h`}>{change.note || st('changes.untitled', { screen: change.screenId })}</h2>
      <p className="studio-review__meta">
        {st('changes.by', { author: change.author, screen: change.screenId })} · {st('changes.revision', { revision: change.revision })} ·{' '}
        <strong>{st(`changes.states.${change.state}`)}</strong>
        {change.approvedBy ? ` · ${st('changes.approvedBy', { approver: change.approvedBy })}` : null}
        {change.version !== undefined ? ` · ${st('changes.version', { version: change.version })}` : null}
      </p>
      {sentBack?.action === 'sent-back' ? <Alert kind="warning">{st('changes.sentBack', { who: sentBack.who, comment: sentBack.comment ?? '' })}</Alert> : null}
      {change.conflicts.length > 0 ? <Alert kind="warning">{st('changes.conflicts', { files: change.conflicts.join(', ') })}</Alert> : null}
      <Outcome error={error} done={done} />

      <ChangeActions
        change={change}
        mine={mine}
        reviewer={reviewer}
        busy={busy}
        onAct={(action, comment) => void act(action, comment)}
        onEdit={() => props.onEdit(change)}
      />
      <Rollout change={change} approver={person.role === 'approver'} busy={busy} onAct={(action) => void act(action)} onChanged={props.onChanged} />
      {change.state === 'review' && !reviewer ? <p>{mine ? st('changes.waitingMine') : st('changes.waitingApprover')}</p> : null}

      <h3>{st('changes.what', { count: change.diff.length })}</h3>
      <DiffList diff={change.diff} textOf={props.textOf} />
      <h3>{st('changes.pictures')}</h3>
      <Pictures states={change.pictures} />
      <h3>{st('changes.trail')}</h3>
      <ol className="studio-review__trail">
        {change.events.map((e, i) => (
          <li key={i}>
            {st(`changes.events.${e.action}`, { who: e.who, when: when(e.at) })}
            {e.revision !== undefined ? ` ${st('changes.eventRevision', { revision: e.revision })}` : null}
            {e.comment ? <q>{e.comment}</q> : null}
          </li>
        ))}
      </ol>
    </article>
  );
}
