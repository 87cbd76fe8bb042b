/**
 * Calls of the platform modules (src/platform): ticket status lists (two calls, the client picks one by
 * the feature flag ticketStatusesV2) and the error-reporting state for technicians and end users.
 * All need a session.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { apiError } from '../errors.js';
import { operationRoute } from './operation.js';

export const DEMO_TICKET_STATUSES = [
  { id: 1000, name: 'New', category: 'OPEN' },
  { id: 2000, name: 'Open', category: 'OPEN' },
  { id: 3000, name: 'Waiting', category: 'WAITING' },
  { id: 4000, name: 'Paused', category: 'WAITING' },
  { id: 5000, name: 'Resolved', category: 'CLOSED' },
  { id: 6000, name: 'Closed', category: 'CLOSED' },
] as const;

const platform: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const signedIn = async (req: FastifyRequest, reply: FastifyReply) => {
    reply.header('Cache-Control', 'no-store');
    const current = await ctx.sessions.current(req);
    if (!current) apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    return current;
  };

  for (const operation of ['ticketStatuses', 'ticketStatusesV2'] as const) {
    operationRoute(app, operation, async (req, reply) => {
      if (!(await signedIn(req, reply))) return reply;
      return { statuses: DEMO_TICKET_STATUSES };
    });
  }

  // Error reporting is on in production deployments only (APP_ENV=production).
  operationRoute(app, 'errorReportingState', async (req, reply) => {
    const current = await signedIn(req, reply);
    if (!current) return reply;
    if (current.user.user_type === 'END_USER') return apiError(reply, 403, 'FORBIDDEN', 'Technicians only');
    return { enabled: ctx.config.appEnv === 'production' };
  });
  operationRoute(app, 'errorReportingStateEus', async (req, reply) => {
    if (!(await signedIn(req, reply))) return reply;
    return { enabled: ctx.config.appEnv === 'production' };
  });
};
export default platform;
