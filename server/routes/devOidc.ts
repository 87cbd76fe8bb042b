/**
 * /dev/oidc: the demo tenant's OpenID provider (dev tools only): the `oidc-provider` instance of
 * server/sso/demoOidcProvider.ts mounted under /dev/oidc (discovery, authorize, token, JWKS …), and
 * its login page at /dev/oidc-login/:uid ("Continue as {email}", the login_hint of the request).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type Provider from 'oidc-provider';
import type { Database } from '../db/data.js';
import type { Sealer } from '../sso/connections.js';
import { createDemoOidcProvider, DEMO_OIDC_LOGIN_PATH, DEMO_OIDC_PATH } from '../sso/demoOidcProvider.js';
import { escapeHtml, htmlPage } from './dev.js';

export interface DemoOidcRouteOptions {
  data?: Database;
  sealer?: Sealer;
  now?: () => number;
  baseUrl?: string;
}

function page(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(htmlPage('Demo OIDC', `<h1>Demo OIDC</h1>${body}`));
}

const devOidc: FastifyPluginAsync<DemoOidcRouteOptions> = async (app, options) => {
  const data = options.data ?? app.fd.data;
  const sealer = options.sealer ?? { seal: app.fd.seal, unseal: app.fd.unseal };
  const now = options.now ?? app.fd.now;
  const baseUrl = options.baseUrl ?? app.fd.config.publicUrl;
  let provider: Promise<Provider> | undefined;
  const getProvider = () => (provider ??= createDemoOidcProvider({ data, sealer, now, baseUrl }));

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
        const hint = typeof details.params.login_hint === 'string' ? details.params.login_hint : '';
        const field = hint
          ? `<input type="hidden" name="email" value="${escapeHtml(hint)}"><button type="submit">Continue as ${escapeHtml(hint)}</button>`
          : '<label>Email <input name="email" type="email" autocomplete="username" required></label> <button type="submit">Continue</button>';
        return page(
          reply,
          200,
          `<p>Sign in to the application.</p><form method="post" action="${DEMO_OIDC_LOGIN_PATH}/${escapeHtml(req.params.uid)}">${field}</form>`,
        );
      } catch {
        return page(reply, 400, '<p role="alert">This sign-in request is unknown or has expired.</p><p><a href="/login">Back to sign in</a></p>');
      }
    });
    login.post<{ Params: { uid: string }; Body: { email?: string } }>(`${DEMO_OIDC_LOGIN_PATH}/:uid`, async (req, reply) => {
      const oidc = await getProvider();
      try {
        const details = await oidc.interactionDetails(req.raw, reply.raw);
        const email = String(req.body?.email ?? '').trim();
        if (!/^[^@\s]+@[^@\s]+$/.test(email)) return page(reply, 400, '<p role="alert">Type the email address to sign in with.</p>');
        // Signing in grants the scopes asked for at once (a demo has no consent screen).
        const grant = new oidc.Grant({ accountId: email, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope ?? 'openid'));
        const grantId = await grant.save();
        reply.hijack();
        await oidc.interactionFinished(req.raw, reply.raw, { login: { accountId: email }, consent: { grantId } }, { mergeWithLastSubmission: false });
        return reply;
      } catch {
        return page(reply, 400, '<p role="alert">This sign-in request is unknown or has expired.</p><p><a href="/login">Back to sign in</a></p>');
      }
    });
  });
};
export default devOidc;
