import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { FastifyReply } from 'fastify';
import type { ExperimentStart, ExperimentSummary } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import { brandingRows } from '../../db/branding.js';
import type { Queryable } from '../../db/data.js';
import { endExperiment, findExperiment, insertExperiment, keysOf, listExperiments, type Experiment } from '../../db/experiments.js';
import { clashingExperiment, normalTarget, targetProblem, variantsProblem } from '../../services/experiments.js';
import { funnelReport } from '../../services/funnelReport.js';
import type { StudioContext } from './context.js';
import { listCatalogue } from './files.js';

/**
 * Experiments and the funnel (issue 38; docs/editing-screens.md):
 *   GET  /dev/studio/api/funnel?screen=S[&version=V][&days=N]   the screen's funnel per variant (services/funnelReport.ts)
 *   GET  /dev/studio/api/experiments                            every experiment
 *   POST /dev/studio/api/experiments                            { id, screen, textKey, variants, hosts?, languages? }: start one
 *   POST /dev/studio/api/experiments/:id/promote                { winner }: every visitor sees the winner's text
 *   POST /dev/studio/api/experiments/:id/stop                   every visitor sees the catalogue's text again
 * Starting, promoting and stopping change what visitors see: an approver's actions, as a rollback is
 * (an editor alone never changes what runs). Only a text the spec does not fix may vary. `hosts` and
 * `languages` limit it to those branded hosts and languages (unknown ones: 400 naming them). A rollout
 * (an experiment of a studio change, ./api-rollout.ts) is promoted or stopped on its change, not here.
 */

const NAME = '^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$';
/** The target's lists as the routes take them (validated against the branded hosts and languages then). */
export const TARGET_PROPERTIES = {
  hosts: { type: 'array', maxItems: 50, items: { type: 'string', minLength: 1, maxLength: 253 } },
  languages: { type: 'array', maxItems: 40, items: { type: 'string', minLength: 1, maxLength: 16 } },
} as const;
const START_BODY = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'screen', 'textKey', 'variants'],
  properties: {
    id: { type: 'string', pattern: NAME },
    screen: { type: 'string', pattern: NAME },
    textKey: { type: 'string', pattern: '^[A-Za-z0-9_]+(\\.[A-Za-z0-9_]+)+$', maxLength: 200 },
    variants: {
      type: 'array',
      minItems: 2,
      maxItems: 4,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['name', 'share', 'texts'],
        properties: {
          name: { type: 'string', pattern: '^[A-Z]$' },
          share: { type: 'integer', minimum: 1, maximum: 99 },
          texts: { type: 'object', maxProperties: 40, additionalProperties: { type: 'string', minLength: 1, maxLength: 1000 } },
        },
      },
    },
    ...TARGET_PROPERTIES,
  },
} as const;

const DAY = 24 * 60 * 60 * 1000;

/** Whether the default language has the key (a text of the catalogue, which a variant may replace). */
function hasText(root: string, key: string): boolean {
  const [file, ...rest] = key.split('.');
  const where = path.join(root, 'locales', 'en-us', `${file ?? ''}.json`);
  if (!fs.existsSync(where)) return false;
  let node: unknown = JSON.parse(fs.readFileSync(where, 'utf8'));
  for (const part of rest) node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
  return typeof node === 'string';
}

export const experimentSummary = (e: Experiment): ExperimentSummary => ({
  id: e.id,
  screen: e.screen,
  textKeys: keysOf(e),
  status: e.status,
  winner: e.winner,
  variants: e.variants,
  hosts: e.hosts,
  languages: e.languages,
  changeId: e.changeId,
  changeRevision: e.changeRevision,
});

/**
 * Whether an experiment on `screen` varying `keys` for this target may start: the refusal sent (400 for
 * an unknown host or language, 409 when another runs on the screen or varies one of the keys), or the
 * target as stored.
 */
export async function startable(
  q: Queryable,
  reply: FastifyReply,
  start: { screen: string; keys: readonly string[]; hosts?: readonly string[]; languages?: readonly string[] },
): Promise<{ hosts: string[]; languages: string[] } | undefined> {
  const target = normalTarget(start);
  const problem = targetProblem(
    target,
    (await brandingRows(q)).map((r) => r.hostname),
  );
  if (problem) return void apiError(reply, 400, problem.error, problem.message);
  const running = clashingExperiment(await listExperiments(q), start.screen, start.keys);
  if (running)
    return void apiError(
      reply,
      409,
      'ALREADY_RUNNING',
      `Experiment "${running.id}" runs on ${running.screen} or varies the same texts: promote or stop it first.`,
    );
  return target;
}

export function registerExperiments(app: FastifyInstance, ctx: StudioContext): void {
  app.get<{ Querystring: { screen?: string; version?: string; days?: string } }>('/dev/studio/api/funnel', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    const { screen, version } = req.query;
    if (typeof screen !== 'string' || !listCatalogue(ctx.root).screens.includes(screen))
      return apiError(reply, 404, 'NOT_FOUND', 'Name a screen of the catalogue: ?screen=<id>.');
    const days = Math.min(Math.max(Number(req.query.days) || 30, 1), 365);
    reply.header('Cache-Control', 'no-store');
    return funnelReport(ctx.data, { screen, version: version || undefined, since: app.fd.now() - days * DAY });
  });

  app.get('/dev/studio/api/experiments', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    reply.header('Cache-Control', 'no-store');
    return { experiments: (await listExperiments(ctx.data)).map(experimentSummary) };
  });

  app.post<{ Body: ExperimentStart }>('/dev/studio/api/experiments', { schema: { body: START_BODY } }, async (req, reply) => {
    const me = await ctx.signedIn(req, reply);
    if (!me) return reply;
    if (me.role !== 'approver') return apiError(reply, 403, 'NOT_APPROVER', 'Only an approver starts an experiment: it changes what visitors see.');
    const { id, screen, textKey } = req.body;
    if (!listCatalogue(ctx.root).screens.includes(screen)) return apiError(reply, 400, 'UNKNOWN_SCREEN', `No screen "${screen}" in the catalogue.`);
    if (!hasText(ctx.root, textKey)) return apiError(reply, 400, 'UNKNOWN_TEXT', `No text "${textKey}" in the catalogue.`);
    const variants = req.body.variants.map((v) => ({ ...v, texts: { [textKey]: v.texts } }));
    const problem = variantsProblem(variants);
    if (problem) return apiError(reply, 400, 'INVALID_EXPERIMENT', problem);
    const target = await startable(ctx.data, reply, { screen, keys: [textKey], hosts: req.body.hosts, languages: req.body.languages });
    if (!target) return reply;
    const made = await insertExperiment(ctx.data, { id, screen, variants, ...target, status: 'running', winner: null, createdAt: app.fd.now() });
    if (!made) return apiError(reply, 409, 'ID_TAKEN', `An experiment "${id}" exists already.`);
    return reply.code(201).send({ ok: true });
  });

  app.post<{ Params: { id: string; action: string }; Body: { winner?: unknown } | undefined }>(
    '/dev/studio/api/experiments/:id/:action',
    async (req, reply) => {
      const me = await ctx.signedIn(req, reply);
      if (!me) return reply;
      const { action } = req.params;
      if (action !== 'promote' && action !== 'stop') return apiError(reply, 404, 'NOT_FOUND', 'Promote or stop an experiment.');
      if (me.role !== 'approver') return apiError(reply, 403, 'NOT_APPROVER', 'Only an approver promotes or stops an experiment.');
      const experiment = await findExperiment(ctx.data, req.params.id);
      if (!experiment) return apiError(reply, 404, 'NOT_FOUND', `No experiment "${req.params.id}".`);
      if (experiment.changeId !== null)
        return apiError(
          reply,
          409,
          'ROLLOUT_OF_CHANGE',
          `"${experiment.id}" is the rollout of change ${experiment.changeId}: promote or stop it on the change.`,
        );
      const winner = action === 'promote' ? req.body?.winner : null;
      if (action === 'promote' && !experiment.variants.some((v) => v.name === winner))
        return apiError(reply, 400, 'UNKNOWN_VARIANT', `Name the winner: one of ${experiment.variants.map((v) => v.name).join(', ')}.`);
      const done = await endExperiment(
        ctx.data,
        experiment.id,
        action === 'promote' ? 'promoted' : 'stopped',
        typeof winner === 'string' ? winner : null,
        app.fd.now(),
      );
      if (!done) return apiError(reply, 409, 'NOT_RUNNING', `Experiment "${experiment.id}" is not running.`);
      return { ok: true };
    },
  );
}
