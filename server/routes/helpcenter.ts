/**
 * Help-centre single sign-on (helpCenterSsoToken) and academy links (academySsoLink), both for the
 * signed-in user. The token is an HS256 JWT (services/jwt.ts, jose) that the browser form-posts to
 * {helpCenterHost}/access/jwt; the demo help centre (/dev/helpcenter, routes/devHelpcenter.ts) verifies it.
 */
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';
import { helpCenterHosts, helpCenterToken } from '../services/jwt.js';
import { publicBase } from '../services/publicUrl.js';
import type { UserRow } from '../db/accounts.js';
import { operationRoute } from './operation.js';

export function displayName(user: Pick<UserRow, 'email' | 'first_name' | 'last_name'>): string {
  const full = [user.first_name, user.last_name]
    .filter((part) => part && part.trim())
    .join(' ')
    .trim();
  return full || user.email;
}

const helpcenter: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  operationRoute(app, 'helpCenterSsoToken', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const current = await ctx.sessions.current(req);
    if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    const hosts = helpCenterHosts(ctx.config.helpCenter, ctx.config.devTools, publicBase(ctx, req));
    const audience = [...new Set([hosts.host, hosts.governmentHost].flatMap((h) => (h ? [new URL(h).origin] : [])))];
    if (!audience.length || !ctx.secrets.helpCenterJwt) return apiError(reply, 404, 'NOT_FOUND', 'No help centre is configured');
    const { user } = current;
    const issuer = new URL(publicBase(ctx, req)).origin;
    return { jwt: await helpCenterToken({ email: user.email, name: displayName(user) }, ctx.now(), ctx.secrets.helpCenterJwt, audience, issuer) };
  });

  operationRoute(app, 'academySsoLink', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const current = await ctx.sessions.current(req);
    if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    const { route } = req.query;
    let target: URL;
    try {
      target = new URL(route);
    } catch {
      return apiError(reply, 400, 'VALIDATION', 'route must be an absolute http(s) URL', 'route');
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') {
      return apiError(reply, 400, 'VALIDATION', 'route must be an absolute http(s) URL', 'route');
    }
    // Only the configured academy sites (ACADEMY_HOSTS) get a token, and the token names that site
    // as its audience: it cannot be replayed against the help centre or another academy.
    if (!ctx.config.academyHosts.includes(target.origin) || !ctx.secrets.helpCenterJwt) {
      return apiError(reply, 400, 'VALIDATION', 'route is not on a configured academy host', 'route');
    }
    target.searchParams.set(
      'jwt',
      await helpCenterToken(
        { email: current.user.email, name: displayName(current.user) },
        ctx.now(),
        ctx.secrets.helpCenterJwt,
        target.origin,
        new URL(publicBase(ctx, req)).origin,
      ),
    );
    return { url: target.toString() };
  });
};
export default helpcenter;
