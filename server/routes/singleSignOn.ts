/**
 * The single sign-on endpoints (routes/sso.ts) wired to this server: connections read with the data
 * key (ctx.seal / unseal), links on the request's public base URL (PUBLIC_URL or the branded host's,
 * never a header), and "signed in" meaning what it means after a password: the account's state is
 * checked as for every sign-in (services/accountState.ts, in completeAuthentication), then the session
 * opens and the browser goes to returnTo (or the app); a refusal is answered as the sign-in page would
 * (routes/signInAnswer.ts: the expired-trial page, the moved account's new server, the reason).
 * saml-init (routes/account.ts) starts the round trip through the same host.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { AppContext } from '../context.js';
import { publicBase } from '../services/publicUrl.js';
import { completeAuthentication, countSignIn, safeReturnTo } from '../services/signIn.js';
import { findUserById } from '../db/accounts.js';
import { answerSignIn } from './signInAnswer.js';
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
      if (!user) return answerSignIn(ctx, req, reply, { resultCode: 'AUTHENTICATION_FAILURE' }, '/login');
      const result = countSignIn(ctx, await completeAuthentication(ctx, req, reply, user, identity.staySignedIn));
      if (result.resultCode !== 'SUCCESS')
        log?.(`sso: ${identity.email} was vouched for by connection ${identity.connection.id} but may not sign in (${result.resultCode})`);
      return answerSignIn(ctx, req, reply, result, safeReturnTo(identity.returnTo) ?? (user.user_type === 'END_USER' ? '/eus/' : '/app/'));
    },
  };
}

const singleSignOn: FastifyPluginAsync = async (app) => {
  await app.register(sso, { host: ssoHost(app.fd, (line) => app.log.warn(line)) });
};
export default singleSignOn;
