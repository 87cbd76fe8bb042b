/**
 * The single sign-on endpoints (routes/sso.ts) wired to this server: connections read with the data
 * key (ctx.seal / unseal), links on the request's public base URL (PUBLIC_URL or the branded host's,
 * never a header), and "signed in" meaning what it means after a password: the account must be active
 * and inside its IP allow list, then the session opens and the browser goes to returnTo (or the app).
 * saml-init (routes/account.ts) starts the round trip through the same host.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { publicBase } from '../services/publicUrl.js';
import { completeAuthentication, countSignIn, safeReturnTo } from '../services/signIn.js';
import { findUserById, ipAllowed } from '../services/users.js';
import { escapeHtml, htmlPage } from './dev.js';
import sso, { type SsoHost } from './sso.js';

export function ssoHost(ctx: AppContext, log?: (line: string) => void): SsoHost {
  return {
    data: ctx.data,
    now: ctx.now,
    sealer: { seal: ctx.seal, unseal: ctx.unseal },
    baseUrl: (req) => publicBase(ctx, req),
    ...(log ? { log } : {}),
    async signIn(req, reply, identity) {
      const user = await findUserById(ctx.data, identity.user.id);
      if (!user || user.state !== 'active' || !ipAllowed(user.ip_allow_list, req.ip)) {
        log?.(`sso: ${identity.email} was vouched for by connection ${identity.connection.id} but may not sign in (state or IP allow list)`);
        return reply
          .code(403)
          .header('Cache-Control', 'no-store')
          .type('text/html; charset=utf-8')
          .send(
            htmlPage(
              'Single sign-on',
              `<h1>Single sign-on</h1><p role="alert">${escapeHtml(`${identity.email} cannot sign in here. Contact your system administrator.`)}</p><p><a href="/login">Back to sign in</a></p>`,
            ),
          );
      }
      await completeAuthentication(ctx, req, reply, user, identity.staySignedIn);
      countSignIn(ctx, 'SUCCESS');
      const target = safeReturnTo(identity.returnTo) ?? (user.user_type === 'END_USER' ? '/eus/' : '/app/');
      return reply.code(303).header('Location', target).header('Cache-Control', 'no-store').send();
    },
  };
}

const singleSignOn: FastifyPluginAsync = async (app) => {
  await app.register(sso, { host: ssoHost(app.fd, (line) => app.log.warn(line)) });
};
export default singleSignOn;
