import { useCallback, useState } from 'react';
import type { PendingTranslation } from '../../catalogue/check/pending';
import type { Problem } from '../../catalogue/check/types';
import type { ChangeDetail } from '../../catalogue/studio-contract';
import { ApiError, changeAction, saveDraft } from '../api';
import type { LocaleTexts } from '../recipes/edits';
import { errorWords } from '../review/words';
import { st } from '../studio-i18n';

export interface DraftStatus {
  kind: 'info' | 'success' | 'warning' | 'error';
  text: string;
}

interface DraftInput {
  screenId: string;
  screenText: string;
  changedLocales: LocaleTexts;
  /** The edits differ from the live files. */
  edited: boolean;
  /** The form engine cannot render the edit (the server's check does not render): refused here. */
  renderBlocked: boolean;
  onRefused(problems: Problem[] | undefined, pending: PendingTranslation[] | undefined): void;
  onReviewRequested(id: number): void;
}

/**
 * The draft the editor works on: saved (a new change, or the open one again) with its note, then
 * sent for review. Nothing here writes a file: a draft reaches the files only once another person
 * approved it and it is published (the Changes view).
 */
export function useDraft(input: DraftInput) {
  const { screenId, screenText, changedLocales, edited, renderBlocked, onRefused, onReviewRequested } = input;
  const [draft, setDraft] = useState<{ id: number; saved: string }>();
  const [note, setNote] = useState('');
  const [status, setStatus] = useState<DraftStatus>();
  const [busy, setBusy] = useState<'save' | 'review'>();
  const fingerprint = JSON.stringify([screenId, screenText, changedLocales]);
  const unsaved = draft ? draft.saved !== fingerprint : edited;

  const save = async () => {
    if (renderBlocked) return setStatus({ kind: 'error', text: st('studio.saveRefused') });
    setBusy('save');
    setStatus({ kind: 'info', text: st('studio.saving') });
    try {
      const answer = await saveDraft(draft?.id, { screenId, screen: screenText, locales: changedLocales, note });
      if (answer.change) setDraft({ id: answer.change.id, saved: fingerprint });
      const pending = answer.pending?.length ?? 0;
      setStatus({
        kind: 'success',
        text: st('studio.draftSaved', { id: answer.change?.id }) + (pending > 0 ? ` ${st('studio.savedPending', { count: pending })}` : ''),
      });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PROBLEMS') {
        onRefused(error.answer.problems, error.answer.pending);
        setStatus({ kind: 'error', text: st('studio.saveRefused') });
      } else setStatus({ kind: 'error', text: errorWords(error) });
    } finally {
      setBusy(undefined);
    }
  };

  const requestReview = async () => {
    if (!draft || unsaved) return;
    setBusy('review');
    try {
      await changeAction(draft.id, 'review');
      const id = draft.id;
      setDraft(undefined);
      setNote('');
      setStatus(undefined);
      onReviewRequested(id);
    } catch (error) {
      setStatus({ kind: 'error', text: errorWords(error) });
    } finally {
      setBusy(undefined);
    }
  };

  /** A change opened from the Changes view: saving updates it. */
  const open = useCallback((change: ChangeDetail, fingerprintOf: string) => {
    setDraft({ id: change.id, saved: fingerprintOf });
    setNote(change.note);
    setStatus({ kind: 'info', text: st('studio.draftOpened', { id: change.id }) });
  }, []);

  const close = useCallback(() => {
    setDraft(undefined);
    setNote('');
    setStatus(undefined);
  }, []);

  return { draft: draft?.id, note, setNote, status, busy, unsaved, save, requestReview, open, close, fingerprint };
}
