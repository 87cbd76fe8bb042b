/**
 * Help-centre single sign-on (helpCenterSsoToken) and academy links (academySsoLink), both for the
 * signed-in user. The token is an HS256 JWT (services/jwt.ts) that the browser form-posts to
 * {helpCenterHost}/access/jwt; the demo help centre (/dev/helpcenter, routes/devHelpcenter.ts) verifies it.
 */
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';
import { helpCenterToken } from '../services/jwt.js';
import type { UserRow } from '../services/users.js';
import { operationRoute } from './operation.js';

export function displayName(user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>): string {
  const full = [user.first_name, user.last_name].filter((part) => part && part.trim()).join(' ').trim();
  return full || user.email;
}

const helpcenter: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  operationRoute(app, 'helpCenterSsoToken', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const current = ctx.sessions.current(req);
    if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    const { user } = current;
    return { jwt: helpCenterToken({ email: user.email, name: displayName(user) }, ctx.now()) };
  });

  operationRoute(app, 'academySsoLink', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const current = ctx.sessions.current(req);
    if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    const { route } = req.query as { route: string };
    let target: URL;
    try {
      target = new URL(route);
    } catch {
      return apiError(reply, 400, 'VALIDATION', 'route must be an absolute http(s) URL', 'route');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return apiError(reply, 400, 'VALIDATION', 'route must be an absolute http(s) URL', 'route');
    }
    // The academy signs the user in with the same kind of token as the help centre.
    target.searchParams.set('jwt', helpCenterToken({ email: current.user.email, name: displayName(current.user) }, ctx.now()));
    return { url: target.toString() };
  });
};
export default helpcenter;
