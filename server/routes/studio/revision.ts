import type { ActionAnswer } from '../../../catalogue/studio-contract.js';
import type { Change } from './changes.js';

/**
 * A decision names the revision the person's page showed (issue 35, finding 4): the author may save
 * again between the approver opening a change and clicking, and a decision is of what was read.
 * Another revision is refused with STALE_REVISION and the revision now.
 */
export type Refusal = { status: number; body: ActionAnswer & { error: string } };

/** The revision a decision names: a positive whole number, or the refusal to send. */
export function namedRevision(change: Change, value: unknown): number | Refusal {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1)
    return {
      status: 400,
      body: { error: 'REVISION_REQUIRED', revision: change.revision, message: `Name the revision you read: { "revision": ${change.revision} }.` },
    };
  return value === change.revision ? value : stale(change, value);
}

export function stale(change: Change, named: number): Refusal {
  return {
    status: 409,
    body: {
      error: 'STALE_REVISION',
      revision: change.revision,
      message: `Change ${change.id} is at revision ${change.revision} now, not revision ${named}: its author saved it since. Read revision ${change.revision}, then decide.`,
    },
  };
}

export const refusedRevision = (value: number | Refusal): value is Refusal => typeof value !== 'number';
