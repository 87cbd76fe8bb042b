/**
 * /dev/oidc: the demo tenant's OpenID provider (dev tools only): the `oidc-provider` instance of
 * server/sso/demoOidcProvider.ts mounted under /dev/oidc (discovery, authorize, token, JWKS …), and
 * its login page at /dev/oidc-login/:uid ("Continue as {email}", the login_hint of the request).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import { createDemoOidcProvider, DEMO_OIDC_LOGIN_PATH, DEMO_OIDC_PATH } from '../sso/demoOidcProvider.js';
import { escapeHtml } from './dev.js';
import { continueAsField, demoIdpContext, idpFailure, idpPage, typedEmail, TYPE_YOUR_EMAIL, type DemoIdpOptions } from './devIdp.js';

const TITLE = 'Demo OIDC';
const EXPIRED = 'This sign-in request is unknown or has expired.';

const devOidc: FastifyPluginAsync<DemoIdpOptions> = async (app, options) => {
  const context = demoIdpContext(app, options);
  let provider: Promise<Provider> | undefined;
  const getProvider = () => (provider ??= createDemoOidcProvider(context));

  // The provider: its own router reads the raw request (bodies included), below the mount path.
  await app.register(async (mounted) => {
    mounted.removeAllContentTypeParsers();
    mounted.addContentTypeParser('*', (_req, _payload, done) => done(null));
    const handle = async (req: { raw: import('node:http').IncomingMessage }, reply: FastifyReply) => {
      const callback = (await getProvider()).callback();
      reply.hijack();
      // Mounted the way Express mounts it: the provider finds its mount path from originalUrl / baseUrl.
      const originalUrl = req.raw.url ?? '/';
      Object.assign(req.raw, { originalUrl, baseUrl: DEMO_OIDC_PATH });
      req.raw.url = originalUrl.slice(DEMO_OIDC_PATH.length) || '/';
      callback(req.raw, reply.raw);
    };
    mounted.all(DEMO_OIDC_PATH, handle);
    mounted.all(`${DEMO_OIDC_PATH}/*`, handle);
  });

  await app.register(async (login) => {
    await login.register(formbody, { bodyLimit: 16 * 1024 });
    login.get<{ Params: { uid: string } }>(`${DEMO_OIDC_LOGIN_PATH}/:uid`, async (req, reply) => {
      try {
        const details = await (await getProvider()).interactionDetails(req.raw, reply.raw);
        const field = continueAsField(typeof details.params.login_hint === 'string' ? details.params.login_hint : '');
        return idpPage(
          reply,
          TITLE,
          200,
          `<p>Sign in to the application.</p><form method="post" action="${DEMO_OIDC_LOGIN_PATH}/${escapeHtml(req.params.uid)}">${field}</form>`,
        );
      } catch {
        return idpFailure(reply, TITLE, EXPIRED);
      }
    });
    login.post<{ Params: { uid: string }; Body: { email?: string } }>(`${DEMO_OIDC_LOGIN_PATH}/:uid`, async (req, reply) => {
      const oidc = await getProvider();
      try {
        const details = await oidc.interactionDetails(req.raw, reply.raw);
        const email = typedEmail(req.body?.email);
        if (!email) return idpFailure(reply, TITLE, TYPE_YOUR_EMAIL);
        // Signing in grants the scopes asked for at once (a demo has no consent screen).
        const grant = new oidc.Grant({ accountId: email, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        reply.hijack();
        await oidc.interactionFinished(req.raw, reply.raw, { login: { accountId: email }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return reply;
      } catch {
        return idpFailure(reply, TITLE, EXPIRED);
      }
    });
  });
};
export default devOidc;
