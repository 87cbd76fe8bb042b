import { useId } from 'react';
import { Alert, Button } from '../src/ui';
import type { useDraft } from './state/useDraft';
import { st } from './studio-i18n';

/** The editor's draft: its note for the reviewer, Save draft, Request review, Discard edits, and what happened. */
export function DraftBar({ draft, onDiscard }: { draft: ReturnType<typeof useDraft>; onDiscard(): void }) {
  const id = useId();
  return (
    <div className="studio__draft">
      <div className="fd-field studio__note">
        <label className="fd-field__label" htmlFor={`${id}-note`}>
          {st('studio.note')}
        </label>
        <textarea
          id={`${id}-note`}
          className="fd-input"
          rows={2}
          value={draft.note}
          onChange={(e) => draft.setNote(e.target.value)}
          aria-describedby={`${id}-note-help`}
        />
        <small id={`${id}-note-help`} className="fd-field__help">
          {st('studio.noteHelp')}
        </small>
      </div>
      <div className="studio__actions">
        <Button variant="primary" busy={draft.busy === 'save'} onClick={() => void draft.save()} data-testid="studio-save">
          {st('studio.save')}
        </Button>
        <Button
          variant="secondary"
          busy={draft.busy === 'review'}
          aria-disabled={draft.draft === undefined || draft.unsaved || undefined}
          aria-describedby={draft.draft === undefined || draft.unsaved ? `${id}-review-help` : undefined}
          onClick={() => void draft.requestReview()}
        >
          {st('studio.requestReview')}
        </Button>
        <Button variant="tertiary" onClick={onDiscard}>
          {st('studio.reset')}
        </Button>
      </div>
      {draft.draft === undefined || draft.unsaved ? (
        <small id={`${id}-review-help`} className="studio__hint">
          {st('studio.reviewNeedsSave')}
        </small>
      ) : null}
      <div role="status" data-testid="studio-save-status">
        {draft.status ? <Alert kind={draft.status.kind}>{draft.status.text}</Alert> : null}
      </div>
    </div>
  );
}
