import type { FastifyInstance } from 'fastify';
import type { SessionAnswer } from '../../../catalogue/studio-contract.js';
import { apiError } from '../../errors.js';
import type { StudioContext } from './context.js';
import { SIGN_IN_PATH, sessionAnswer } from './people.js';

/**
 * Who uses the studio (studio people sign in on the product's sign-in page: ./people.ts):
 *   GET    /dev/studio/api/me        the signed-in person, or why nobody is (SessionAnswer)
 *   DELETE /dev/studio/api/session   sign out (the product's session of this browser ends)
 *   POST   /dev/studio/api/session   410: the studio no longer takes passwords (it did before issue 35)
 */
export function registerSession(app: FastifyInstance, ctx: StudioContext): void {
  app.get('/dev/studio/api/me', async (req, reply): Promise<SessionAnswer> => {
    reply.header('Cache-Control', 'no-store');
    return sessionAnswer(await ctx.people.entry(req), ctx.people.production);
  });

  app.post('/dev/studio/api/session', async (_req, reply) =>
    apiError(reply, 410, 'SIGN_IN_MOVED', `Studio people sign in on the product's sign-in page: ${SIGN_IN_PATH}`),
  );

  app.delete('/dev/studio/api/session', async (req, reply): Promise<SessionAnswer> => {
    await ctx.people.signOut(req, reply);
    reply.header('Cache-Control', 'no-store');
    return sessionAnswer({ refused: 'SIGN_IN_REQUIRED' }, ctx.people.production);
  });
}
