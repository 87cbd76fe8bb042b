import type { ActionAnswer, Person } from '../../../catalogue/studio-contract.js';
import { runningRolloutOf } from '../../db/experiments.js';
import type { StudioContext } from './context.js';
import { readCatalogueFiles, writeFiles } from './files.js';
import { namedRevision, refusedRevision, stale } from './revision.js';
import { endRollout } from './rollout.js';

/** What a publish answers: 200 with the version and the rebuild, or a refusal. */
export type Outcome = { status: number; body: ActionAnswer & { error?: string } };

/** A publish found its change no longer approved at the revision it read (thrown to roll the version back). */
class ChangeMoved extends Error {}

/**
 * Publishes an approved change at the revision named: checked again, refused when its files changed
 * since the draft, recorded as a version with the change marked published (one transaction), written
 * and rebuilt. A running rollout of the change ends in the same transaction (promoted: every visitor
 * sees the change's texts now); while one runs, only an approver publishes (promotes) it.
 */
export async function publishChange(ctx: StudioContext, id: number, me: Person, named: unknown): Promise<Outcome> {
  return ctx.history.exclusive(async (): Promise<Outcome> => {
    await ctx.history.sync();
    const change = await ctx.changes.get(id);
    if (!change) return { status: 404, body: { error: 'NOT_FOUND', message: 'No such change' } };
    // The revision first: "its author saved it since" says more than "it is in review".
    const revision = namedRevision(change, named);
    if (refusedRevision(revision)) return revision;
    if (change.state !== 'approved')
      return { status: 409, body: { error: 'WRONG_STATE', message: `Change ${id} is not approved: only an approved change is published.` } };
    if (me.role !== 'approver' && (await runningRolloutOf(ctx.data, id)))
      return { status: 403, body: { error: 'NOT_APPROVER', message: `Change ${id} is being rolled out: only an approver promotes or stops it.` } };
    const disk = readCatalogueFiles(ctx.root);
    const conflicts = change.files.filter((path) => (disk[path] ?? null) !== (change.before[path] ?? null));
    if (conflicts.length > 0)
      return {
        status: 409,
        body: {
          error: 'CONFLICT',
          conflicts,
          message: `Changed since the draft was saved: ${conflicts.join(', ')}. Its author opens it, checks it and saves it again (a new review follows).`,
        },
      };
    const { problems, pending } = await ctx.checkFiles(change.after, change.screenId);
    if (problems.length > 0) return { status: 422, body: { error: 'PROBLEMS', problems, pending } };
    const version = await ctx.data
      .tx(async (t) => {
        const number = await ctx.history.record(
          t,
          { kind: 'publish', author: change.author, approver: change.approvedBy ?? null, note: change.note, changeId: change.id },
          change.after,
        );
        // Its author saved it (or another person published it) since it was read: the version rolls back.
        if (!(await ctx.changes.published(t, change.id, me.email, number, revision))) throw new ChangeMoved();
        await endRollout(t, ctx, { changeId: change.id, who: me.email, revision, to: 'promoted' });
        return number;
      })
      .catch((error: unknown) => {
        if (error instanceof ChangeMoved) return undefined;
        throw error;
      });
    if (version === undefined) {
      const now = (await ctx.changes.get(change.id)) ?? change;
      return now.revision !== revision
        ? stale(now, revision)
        : { status: 409, body: { error: 'WRONG_STATE', message: `Change ${change.id} is ${now.state} now.` } };
    }
    writeFiles(ctx.root, change.after);
    ctx.history.wrote(version);
    return { status: 200, body: { version, publish: ctx.publish.request() } };
  });
}
