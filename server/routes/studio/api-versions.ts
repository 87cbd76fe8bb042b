import type { FastifyInstance } from 'fastify';
import type { ActionAnswer, Comparison, VersionsAnswer } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import { text, whole, type StudioContext } from './context.js';
import { describeChange } from './describe.js';
import { listCatalogue, writeFiles } from './files.js';
import { asTexts } from './history.js';
import { pictureUrl } from './pictures.js';

/**
 * The history:
 *   GET  /dev/studio/api/versions                   every version, newest first, and the one this server runs
 *   GET  /dev/studio/api/compare?from=A&to=B        what changed from version A to version B (any two, either order)
 *   POST /dev/studio/api/versions/:n/rollback       { latest, note }: the catalogue as at version n, in one action: the
 *                                                   same check and rebuild as a publish, recorded as a version with who did it
 * A rollback is an approver's (NOT_APPROVER otherwise), without a second review: it is the brake after a bad
 * publish, and it restores only a catalogue that has run before (every version did: a publish was reviewed when
 * it was made, the first version and changes outside the studio are the files the server was given). A second
 * review would keep the bad text live while a second approver is found; an editor alone never changes what runs.
 * It names the newest version the person's history showed (`latest`): a rollback over a version published since
 * would undo it unseen, so it is refused (HISTORY_MOVED) and the history shown again.
 */

export function registerVersions(app: FastifyInstance, ctx: StudioContext): void {
  app.get('/dev/studio/api/versions', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    reply.header('Cache-Control', 'no-store');
    await ctx.history.exclusive(() => ctx.history.sync());
    return { versions: await ctx.history.list(), live: ctx.history.applied() } satisfies VersionsAnswer;
  });

  app.get<{ Querystring: { from?: string; to?: string } }>('/dev/studio/api/compare', async (req, reply) => {
    if (!(await ctx.signedIn(req, reply))) return reply;
    const from = whole(req.query.from);
    const to = whole(req.query.to);
    const latest = await ctx.history.latest();
    if (from === undefined || to === undefined || from > latest || to > latest)
      return apiError(reply, 404, 'NOT_FOUND', `Compare two versions from 1 to ${latest}: ?from=<number>&to=<number>.`);
    reply.header('Cache-Control', 'no-store');
    const source = `compare:${from}:${to}`;
    const { diff, pictures } = describeChange(ctx.root, await ctx.history.sides(from, to), (side, state, width, scheme) =>
      pictureUrl({ source, side, ...state, width, scheme }),
    );
    return { from, to, diff, pictures } satisfies Comparison;
  });

  app.post<{ Params: { n: string }; Body: { note?: unknown; latest?: unknown } | undefined }>('/dev/studio/api/versions/:n/rollback', async (req, reply) => {
    const me = await ctx.signedIn(req, reply);
    if (!me) return reply;
    if (me.role !== 'approver') return apiError(reply, 403, 'NOT_APPROVER', 'Only an approver rolls back: it changes what runs without a review.');
    const target = whole(req.params.n);
    const seen = req.body?.latest;
    if (typeof seen !== 'number' || !Number.isSafeInteger(seen))
      return apiError(reply, 400, 'LATEST_REQUIRED', 'Name the newest version your history showed: { "latest": <number> }.');
    const note = text(req.body?.note, 500) ?? '';
    const outcome = await ctx.history.exclusive(async (): Promise<{ status: number; body: ActionAnswer & { error?: string } }> => {
      await ctx.history.sync();
      const latest = await ctx.history.latest();
      if (target === undefined || target > latest) return { status: 404, body: { error: 'NOT_FOUND', message: `No version ${req.params.n}.` } };
      if (seen !== latest)
        return {
          status: 409,
          body: { error: 'HISTORY_MOVED', message: `Version ${latest} is the newest now, not version ${seen}: look at the history again, then roll back.` },
        };
      const { after: files } = await ctx.history.sides(latest, target);
      if (Object.keys(files).length === 0)
        return { status: 409, body: { error: 'NOTHING_CHANGED', message: `The catalogue is already as it was at version ${target}.` } };
      const screenId = Object.keys(files)
        .map((p) => /^screens\/([A-Za-z0-9]+)\.json$/.exec(p)?.[1])
        .find((id) => id !== undefined);
      const { problems, pending } = await ctx.checkFiles(asTexts(files), screenId ?? listCatalogue(ctx.root).screens[0] ?? '');
      if (problems.length > 0) return { status: 422, body: { error: 'PROBLEMS', problems, pending } };
      const version = await ctx.data.tx((t) => ctx.history.record(t, { kind: 'rollback', author: me.email, note, restores: target }, files));
      writeFiles(ctx.root, files);
      ctx.history.wrote(version);
      return { status: 200, body: { version, publish: ctx.publish.request() } };
    });
    return reply.code(outcome.status).send(outcome.body);
  });
}
