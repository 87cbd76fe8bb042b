import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionAnswer, ChangeDetail, ChangeState, Person } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import { runningRolloutOf } from '../../db/experiments.js';
import { EDITABLE, summaryOf, type Change } from './changes.js';
import { text, whole, type StudioContext } from './context.js';
import { describeChange } from './describe.js';
import { isRefusal, listCatalogue, parseEdit, readCatalogueFiles, type Edit, type EditBody } from './files.js';
import type { FileTexts } from './history.js';
import { pictureUrl } from './pictures.js';
import { publishChange } from './publish.js';
import { namedRevision, refusedRevision, stale } from './revision.js';
import { changeRollout } from './rollout.js';

/**
 * Drafts and their review:
 *   GET  /dev/studio/api/changes                 open changes, then the last published
 *   POST /dev/studio/api/changes                 save a draft (an edit and a note): the catalogue check first
 *   GET  /dev/studio/api/changes/:id             a change with its diff, pictures, events, conflicts and rollout
 *   PUT  /dev/studio/api/changes/:id             its author saves it again: a new revision, unapproved (in review
 *                                                again if it was in review or approved)
 *   POST /dev/studio/api/changes/:id/review      its author asks for a review
 *   POST /dev/studio/api/changes/:id/approve     { revision }: an approver other than the author approves that revision
 *   POST /dev/studio/api/changes/:id/send-back   { revision, comment }: … or sends it back to its author
 *   POST /dev/studio/api/changes/:id/discard     its author drops it
 *   POST /dev/studio/api/changes/:id/publish     { revision }: an approved change at that revision: checked again,
 *                                                written as a version, rebuilt
 * A decision names the revision the person's page showed (issue 35, finding 4): the author may save
 * again between the approver opening a change and clicking Approve, and an approval is of what the
 * approver read. Another revision is refused with STALE_REVISION and the revision now.
 * Refusals carry a code the studio words: NOT_AUTHOR, NOT_APPROVER, OWN_CHANGE, WRONG_STATE,
 * REVISION_REQUIRED, STALE_REVISION, CONFLICT, NOTHING_CHANGED (and the check's 422 with problems), and
 * ROLLOUT_RUNNING: a change being rolled out (./api-rollout.ts) is neither saved again nor discarded.
 */
const NOTE_MAX = 500;
const COMMENT_MAX = 2000;

type ChangeBody = EditBody & { note?: unknown; comment?: unknown; revision?: unknown };

/** The files an edit changes (those that differ from the disk) and their texts now. */
function filesOf(root: string, edit: Edit): { after: Record<string, string>; before: FileTexts } {
  const disk = readCatalogueFiles(root);
  const edited: Record<string, string> = {
    ...(edit.screen !== undefined ? { [`screens/${edit.screenId}.json`]: edit.screen } : {}),
    ...Object.fromEntries(edit.locales.map(({ lang, file, text: t }) => [`locales/${lang}/${file}`, t])),
  };
  const after = Object.fromEntries(Object.entries(edited).filter(([path, t]) => disk[path] !== t));
  return { after, before: Object.fromEntries(Object.keys(after).map((path) => [path, disk[path] ?? null])) };
}

const OPEN: readonly ChangeState[] = EDITABLE;

/** A change whose rollout runs shows visitors the revision approved: it is promoted or stopped before anything else. */
const rolloutRunning = (reply: FastifyReply, change: Change) =>
  apiError(reply, 409, 'ROLLOUT_RUNNING', `Change ${change.id} is being rolled out: an approver promotes or stops the rollout first.`);

export async function changeDetail(ctx: StudioContext, change: Change): Promise<ChangeDetail> {
  const disk = readCatalogueFiles(ctx.root);
  const conflicts = OPEN.includes(change.state) ? change.files.filter((path) => (disk[path] ?? null) !== (change.before[path] ?? null)) : [];
  const source = `change:${change.id}`;
  const { diff, pictures } = describeChange(ctx.root, { before: change.before, after: change.after }, (side, state, width, scheme) =>
    pictureUrl({ source, side, ...state, width, scheme, revision: change.updatedAt }),
  );
  return {
    ...summaryOf(change),
    events: await ctx.changes.events(change.id),
    diff,
    pictures,
    texts: change.after,
    conflicts,
    rollout: await changeRollout(ctx, change),
  };
}

/** What the change routes share: a request's person and change, the answer with the change, the refusals. */
function changeHelpers(ctx: StudioContext) {
  /** The person and the change of a request, or the refusal sent. */
  async function load(req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<{ me: Person; change: Change } | undefined> {
    const me = await ctx.signedIn(req, reply);
    if (!me) return undefined;
    const id = whole(req.params.id);
    const change = id === undefined ? undefined : await ctx.changes.get(id);
    if (!change) {
      void apiError(reply, 404, 'NOT_FOUND', 'No such change');
      return undefined;
    }
    return { me, change };
  }

  const answer = async (id: number, extra: ActionAnswer = {}): Promise<ActionAnswer> => {
    const change = await ctx.changes.get(id);
    return { ...extra, ...(change ? { change: await changeDetail(ctx, change) } : {}) };
  };
  const wrongState = (reply: FastifyReply, change: Change) =>
    apiError(reply, 409, 'WRONG_STATE', `Change ${change.id} is ${change.state} now: reload it to see what happened.`);

  /** The edit of a body, checked; or the refusal sent (400/403 for the body, 422 for the check or an empty edit). */
  async function checkedEdit(req: FastifyRequest<{ Body: ChangeBody }>, reply: FastifyReply) {
    const edit = parseEdit(req.body, listCatalogue(ctx.root));
    if (isRefusal(edit)) return void apiError(reply, edit.status, edit.error, edit.message);
    const files = filesOf(ctx.root, edit);
    if (Object.keys(files.after).length === 0)
      return void reply.code(422).send({ error: 'NOTHING_CHANGED', message: 'Nothing to save: the draft is the same as the live files.' });
    const { problems, pending } = await ctx.checkEdit(edit);
    if (problems.length > 0) return void reply.code(422).send({ error: 'PROBLEMS', problems, pending } satisfies ActionAnswer & { error: string });
    return { edit, files, pending, note: text(req.body?.note, NOTE_MAX) ?? '' };
  }

  return { load, answer, wrongState, checkedEdit };
}

type Helpers = ReturnType<typeof changeHelpers>;
const BODY_LIMIT = 4 * 1024 * 1024;

/** Listing, saving a draft, reading one, its author saving it again. */
function draftRoutes(app: FastifyInstance, ctx: StudioContext, { load, answer, wrongState, checkedEdit }: Helpers): void {
  const bodyLimit = BODY_LIMIT;
  app.get('/dev/studio/api/changes', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    reply.header('Cache-Control', 'no-store');
    return { changes: await ctx.changes.list() };
  });

  app.post<{ Body: ChangeBody }>('/dev/studio/api/changes', { bodyLimit }, async (req, reply) => {
    const me = await ctx.signedIn(req, reply);
    if (!me) return reply;
    const checked = await checkedEdit(req, reply);
    if (!checked) return reply;
    const id = await ctx.changes.create(me.email, checked.edit.screenId, checked.note, checked.files.after, checked.files.before);
    return reply.code(201).send(await answer(id, { pending: checked.pending }));
  });

  app.get<{ Params: { id: string } }>('/dev/studio/api/changes/:id', async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    reply.header('Cache-Control', 'no-store');
    return { change: await changeDetail(ctx, loaded.change) };
  });

  app.put<{ Params: { id: string }; Body: ChangeBody }>('/dev/studio/api/changes/:id', { bodyLimit }, async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    if (change.author !== me.email) return apiError(reply, 403, 'NOT_AUTHOR', `Only its author (${change.author}) edits change ${change.id}.`);
    if (!EDITABLE.includes(change.state)) return wrongState(reply, change);
    if (req.body?.screenId !== change.screenId) return apiError(reply, 400, 'BAD_REQUEST', `Change ${change.id} is of screen ${change.screenId}.`);
    if (await runningRolloutOf(ctx.data, change.id)) return rolloutRunning(reply, change);
    const checked = await checkedEdit(req, reply);
    if (!checked) return reply;
    const note = req.body?.note === undefined ? change.note : checked.note;
    if (!(await ctx.changes.update(change.id, me.email, note, checked.files.after, checked.files.before))) return wrongState(reply, change);
    return answer(change.id, { pending: checked.pending });
  });
}

/** A review asked for, approved or sent back; a change discarded. */
function reviewRoutes(app: FastifyInstance, ctx: StudioContext, { load, answer, wrongState }: Helpers): void {
  app.post<{ Params: { id: string } }>('/dev/studio/api/changes/:id/review', async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    if (change.author !== me.email) return apiError(reply, 403, 'NOT_AUTHOR', `Only its author (${change.author}) asks for a review of change ${change.id}.`);
    if (!(await ctx.changes.move(change.id, me.email, { from: ['draft'], to: 'review', action: 'review-requested' }))) return wrongState(reply, change);
    return answer(change.id);
  });

  /** The refusal of a decision that did not land: the change moved to another revision, or another state. */
  const notMoved = async (reply: FastifyReply, change: Change, revision: number) => {
    const now = (await ctx.changes.get(change.id)) ?? change;
    if (now.revision !== revision) {
      const refusal = stale(now, revision);
      return reply.code(refusal.status).send(refusal.body);
    }
    return wrongState(reply, now);
  };

  /** Approve or send back the revision read: an approver, never the change's author. */
  const review = (to: 'approved' | 'draft') => async (req: FastifyRequest<{ Params: { id: string }; Body: ChangeBody }>, reply: FastifyReply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    if (me.role !== 'approver') return apiError(reply, 403, 'NOT_APPROVER', 'Only an approver approves or sends back a change.');
    if (change.author === me.email) return apiError(reply, 403, 'OWN_CHANGE', 'Nobody approves their own change: another approver reviews it.');
    const revision = namedRevision(change, req.body?.revision);
    if (refusedRevision(revision)) return reply.code(revision.status).send(revision.body);
    const comment = text(req.body?.comment, COMMENT_MAX) ?? '';
    if (to === 'draft' && comment === '') return apiError(reply, 400, 'COMMENT_REQUIRED', 'Say what to change when sending a change back.');
    const step = { from: ['review'] as const, to, action: to === 'approved' ? ('approved' as const) : ('sent-back' as const), revision };
    if (!(await ctx.changes.move(change.id, me.email, { ...step, ...(comment ? { comment } : {}) }))) return notMoved(reply, change, revision);
    return answer(change.id);
  };
  app.post('/dev/studio/api/changes/:id/approve', review('approved'));
  app.post('/dev/studio/api/changes/:id/send-back', review('draft'));

  app.post<{ Params: { id: string } }>('/dev/studio/api/changes/:id/discard', async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    if (change.author !== me.email) return apiError(reply, 403, 'NOT_AUTHOR', `Only its author (${change.author}) discards change ${change.id}.`);
    if (await runningRolloutOf(ctx.data, change.id)) return rolloutRunning(reply, change);
    if (!(await ctx.changes.move(change.id, me.email, { from: EDITABLE, to: 'discarded', action: 'discarded' }))) return wrongState(reply, change);
    return answer(change.id);
  });
}

/** An approved change published (./publish.ts): checked again, written as a version, the app rebuilt; its rollout, if one runs, ends. */
function publishRoute(app: FastifyInstance, ctx: StudioContext, { load, answer }: Helpers): void {
  app.post<{ Params: { id: string }; Body: ChangeBody }>('/dev/studio/api/changes/:id/publish', async (req, reply) => {
    const loaded = await load(req, reply);
    if (!loaded) return reply;
    const outcome = await publishChange(ctx, loaded.change.id, loaded.me, req.body?.revision);
    if (outcome.status !== 200) return reply.code(outcome.status).send(outcome.body);
    return answer(loaded.change.id, outcome.body);
  });
}

export function registerChanges(app: FastifyInstance, ctx: StudioContext): void {
  const helpers = changeHelpers(ctx);
  draftRoutes(app, ctx, helpers);
  reviewRoutes(app, ctx, helpers);
  publishRoute(app, ctx, helpers);
}
