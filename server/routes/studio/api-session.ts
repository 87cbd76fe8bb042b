import type { FastifyInstance } from 'fastify';
import { apiError } from '../../errors.js';
import type { StudioContext } from './context.js';
import { clearedCookie, sessionCookie, SIGN_IN_LIMIT, studioToken } from './people.js';

/**
 *   GET    /dev/studio/api/me        the signed-in person ({ person: null } when nobody is)
 *   POST   /dev/studio/api/session   sign in: { email, password } of an account with a studio role
 *   DELETE /dev/studio/api/session   sign out
 */
export function registerSession(app: FastifyInstance, ctx: StudioContext): void {
  const secure = (protocol: string) => protocol === 'https';

  app.get('/dev/studio/api/me', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    return { person: (await ctx.people.personOf(studioToken(req))) ?? null };
  });

  app.post<{ Body: { email?: unknown; password?: unknown } }>('/dev/studio/api/session', async (req, reply) => {
    const email = typeof req.body?.email === 'string' ? req.body.email.slice(0, 320) : '';
    const password = typeof req.body?.password === 'string' ? req.body.password.slice(0, 1024) : '';
    if (!email || !password) return apiError(reply, 400, 'BAD_REQUEST', 'email and password are required');
    const result = await ctx.people.signIn(email, password);
    if ('refused' in result) {
      if (result.refused === 'locked')
        return apiError(reply, 429, 'RATE_LIMITED', `Too many failed sign-ins for this email: try again in ${SIGN_IN_LIMIT.windowMs / 60000} minutes.`);
      return apiError(reply, 401, 'AUTHENTICATION_FAILURE', 'Wrong email or password, or the account has no studio role.');
    }
    reply.header('Set-Cookie', sessionCookie(result.token, secure(req.protocol)));
    return { person: result.person };
  });

  app.delete('/dev/studio/api/session', async (req, reply) => {
    await ctx.people.signOut(studioToken(req));
    reply.header('Set-Cookie', clearedCookie(secure(req.protocol)));
    return { person: null };
  });
}
