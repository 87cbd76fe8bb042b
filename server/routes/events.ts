/**
 * The funnel's intake and the experiments' assignments (issue 38, docs/editing-screens.md). POST
 * /ws/events answers 202 whatever happens after its contract check: over the address's limit, or
 * with the database busy, the batch is dropped silently: the funnel never slows or fails a sign-in.
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { listExperiments } from '../db/experiments.js';
import { shownVariant } from '../services/experiments.js';
import { browserId, funnelRows, storeFunnelRows, visitorHash, type FunnelEventInput } from '../services/funnel.js';
import { LIMITS } from '../services/limits.js';
import { secureRequest } from '../services/publicUrl.js';
import { operationRoute } from './operation.js';

/** A batch is at most 40 small events: 8 KiB is plenty, and a bigger body is refused before it is parsed. */
export const EVENTS_BODY_LIMIT = 8 * 1024;

const browserOf = (app: FastifyInstance, req: FastifyRequest, reply: FastifyReply) => browserId(req, reply, secureRequest(app.fd, req));

async function takeEvents(app: FastifyInstance, req: FastifyRequest, id: string, events: readonly FunnelEventInput[]): Promise<number> {
  const { fd } = app;
  const now = fd.now();
  const hits = await fd.limits.hit(fd.data, 'funnel-events', req.ip, LIMITS.window.calls);
  if (hits.count > LIMITS.eventBatchesPerAddressPerMinute) return 0;
  const running = (await listExperiments(fd.data)).filter((e) => e.status === 'running');
  const rows = await funnelRows(fd.data, events, { id, hash: visitorHash(fd.secrets.tokenKey, id, now) }, running, now);
  await storeFunnelRows(fd.data, rows);
  return rows.length;
}

const plugin: FastifyPluginAsync = async (app) => {
  operationRoute(
    app,
    'funnelEvents',
    async (req, reply) => {
      const id = browserOf(app, req, reply);
      let accepted = 0;
      try {
        accepted = await takeEvents(app, req, id, req.body.events);
      } catch (error) {
        req.log.warn({ err: error }, 'funnel: a batch of events was dropped');
      }
      return reply.code(202).send({ accepted });
    },
    { bodyLimit: EVENTS_BODY_LIMIT },
  );

  operationRoute(app, 'experimentAssignments', async (req, reply) => {
    const id = browserOf(app, req, reply);
    const experiments = await listExperiments(app.fd.data);
    const assignments = experiments.flatMap((e) => {
      const variant = shownVariant(e, id);
      return variant ? [{ experiment: e.id, screen: e.screen, variant: variant.name, textKey: e.textKey, texts: variant.texts }] : [];
    });
    // Per browser: never in a shared cache.
    return reply.header('cache-control', 'private, no-store').send({ assignments });
  });
};

export default plugin;
