import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ActionAnswer, Person, RolloutRequest } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import { changeRow } from '../../db/studioChanges.js';
import { insertExperiment, rolloutsOf, runningRolloutOf } from '../../db/experiments.js';
import { changeDetail } from './api-changes.js';
import { startable, TARGET_PROPERTIES } from './api-experiments.js';
import type { Change } from './changes.js';
import { whole, type StudioContext } from './context.js';
import { publishChange } from './publish.js';
import { namedRevision, refusedRevision, type Refusal } from './revision.js';
import { endRollout, rolloutTexts } from './rollout.js';

/**
 * Rollout of a reviewed change (issue 38, ./rollout.ts), an approver's actions, each naming the
 * revision read (STALE_REVISION otherwise, as approvals):
 *   POST /dev/studio/api/changes/:id/rollout           { revision, share, hosts?, languages? }: an approved change of
 *                                                      texts only runs for that share (1–100) of the visitors in the target
 *   POST /dev/studio/api/changes/:id/rollout/promote   { revision }: published to everyone (the publish of any change)
 *   POST /dev/studio/api/changes/:id/rollout/stop      { revision }: ended, the live texts stay ("roll back")
 * While a rollout runs its change is not saved again nor discarded (ROLLOUT_RUNNING): what runs is
 * the revision approved.
 */
const START_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['share'],
  properties: { revision: {}, share: { type: 'integer', minimum: 1, maximum: 100 }, ...TARGET_PROPERTIES },
} as const;

type Loaded = { me: Person; change: Change };

/** The approver and the change of a request, or the refusal sent. */
async function approverAndChange(ctx: StudioContext, req: FastifyRequest<{ Params: { id: string } }>, reply: FastifyReply): Promise<Loaded | undefined> {
  const me = await ctx.signedIn(req, reply);
  if (!me) return undefined;
  const id = whole(req.params.id);
  const change = id === undefined ? undefined : await ctx.changes.get(id);
  if (!change) return void apiError(reply, 404, 'NOT_FOUND', 'No such change');
  if (me.role !== 'approver')
    return void apiError(reply, 403, 'NOT_APPROVER', 'Only an approver rolls a change out, promotes or stops its rollout: it changes what visitors see.');
  return { me, change };
}

const refuse = (reply: FastifyReply, refusal: Refusal) => reply.code(refusal.status).send(refusal.body);
const notRunning = (reply: FastifyReply, change: Change) => apiError(reply, 409, 'NOT_RUNNING', `No rollout of change ${change.id} runs.`);
const answer = async (ctx: StudioContext, id: number, extra: ActionAnswer = {}): Promise<ActionAnswer> => {
  const change = await ctx.changes.get(id);
  return { ...extra, ...(change ? { change: await changeDetail(ctx, change) } : {}) };
};

/** The share and target in the change's history: "20 % · acme.example · de-de". */
const described = (share: number, target: { hosts: string[]; languages: string[] }) => [`${share} %`, ...target.hosts, ...target.languages].join(' · ');

function startRoute(app: FastifyInstance, ctx: StudioContext): void {
  app.post<{ Params: { id: string }; Body: RolloutRequest }>('/dev/studio/api/changes/:id/rollout', { schema: { body: START_BODY } }, async (req, reply) => {
    const loaded = await approverAndChange(ctx, req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    const revision = namedRevision(change, req.body.revision);
    if (refusedRevision(revision)) return refuse(reply, revision);
    if (change.state !== 'approved')
      return apiError(reply, 409, 'WRONG_STATE', `Change ${change.id} is ${change.state}: only an approved change is rolled out.`);
    const found = rolloutTexts(change);
    if ('refused' in found)
      return found.refused.reason === 'fixedText'
        ? apiError(
            reply,
            400,
            'FIXED_TEXT',
            `${found.refused.key ?? ''} is a text the spec fixes or a button label: it never varies, so the change is published to everyone.`,
          )
        : apiError(reply, 400, 'NOT_TEXTS_ONLY', 'Only a change of texts is rolled out: this one changes the screen, removes a text or changes another file.');
    const target = await startable(ctx.data, reply, { screen: change.screenId, keys: found.keys, hosts: req.body.hosts, languages: req.body.languages });
    if (!target) return reply;
    const { share } = req.body;
    const id = `change-${change.id}-${(await rolloutsOf(ctx.data, change.id)).length + 1}`;
    const variants = [
      { name: 'A', share: 100 - share, texts: Object.fromEntries(found.keys.map((key) => [key, {}])) },
      { name: 'B', share, texts: found.texts },
    ];
    const started = await ctx.data.tx(async (t) => {
      // Still approved at the revision read (its author cannot have saved it in between unseen).
      const row = await changeRow(t, change.id);
      if (row?.state !== 'approved' || row.revision !== revision) return false;
      const made = await insertExperiment(t, {
        id,
        screen: change.screenId,
        variants,
        ...target,
        status: 'running',
        winner: null,
        createdAt: app.fd.now(),
        changeId: change.id,
        changeRevision: revision,
      });
      if (made) await ctx.changes.record(t, change.id, me.email, 'rollout-started', revision, described(share, target));
      return made;
    });
    if (!started) return apiError(reply, 409, 'WRONG_STATE', `Change ${change.id} moved, or another rollout of it started: reload it.`);
    return reply.code(201).send(await answer(ctx, change.id));
  });
}

function endRoutes(app: FastifyInstance, ctx: StudioContext): void {
  app.post<{ Params: { id: string }; Body: { revision?: unknown } | undefined }>('/dev/studio/api/changes/:id/rollout/promote', async (req, reply) => {
    const loaded = await approverAndChange(ctx, req, reply);
    if (!loaded) return reply;
    if (!(await runningRolloutOf(ctx.data, loaded.change.id))) return notRunning(reply, loaded.change);
    // The publish of any change, which ends the rollout in its transaction.
    const outcome = await publishChange(ctx, loaded.change.id, loaded.me, req.body?.revision);
    if (outcome.status !== 200) return reply.code(outcome.status).send(outcome.body);
    return answer(ctx, loaded.change.id, outcome.body);
  });

  app.post<{ Params: { id: string }; Body: { revision?: unknown } | undefined }>('/dev/studio/api/changes/:id/rollout/stop', async (req, reply) => {
    const loaded = await approverAndChange(ctx, req, reply);
    if (!loaded) return reply;
    const { me, change } = loaded;
    const revision = namedRevision(change, req.body?.revision);
    if (refusedRevision(revision)) return refuse(reply, revision);
    const stopped = await ctx.data.tx((t) => endRollout(t, ctx, { changeId: change.id, who: me.email, revision, to: 'stopped' }));
    if (!stopped) return notRunning(reply, change);
    return answer(ctx, change.id);
  });
}

export function registerRollout(app: FastifyInstance, ctx: StudioContext): void {
  startRoute(app, ctx);
  endRoutes(app, ctx);
}
