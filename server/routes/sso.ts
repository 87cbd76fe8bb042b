/**
 * Single sign-on endpoints of our side (SP / relying party), for every tenant connection:
 * - GET  /sso/saml/:id/metadata   the SP metadata the IdP's administrator imports;
 * - POST /sso/saml/:id/acs        the assertion consumer (HTTP-POST binding);
 * - GET  /sso/oidc/:id/callback   the OpenID Connect redirect URI.
 * `ssoStart` is what saml-init calls for a user of a connection: it binds the round trip to the
 * browser (the __Host-fd_sso cookie) and answers the IdP URL. What "signed in" means (check the account's
 * state, open the session) is the host's `signIn`, so this plugin does not depend on the services
 * that issue 25 converts (docs/delivery-and-sso.md, wiring). Refusals are a page with one sentence
 * and the way back, never a 500.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { Database } from '../db/data.js';
import { browserNonce, SSO_COOKIE } from '../sso/browser.js';
import { getConnection, userForIdentity, type Sealer, type SsoConnection, type SsoUser } from '../sso/connections.js';
import { finishOidc, startOidc } from '../sso/oidc.js';
import { finishSaml, spMetadata, startSaml } from '../sso/saml.js';
import { escapeHtml, htmlPage } from './dev.js';

export { browserNonce, SSO_COOKIE };

export interface SsoIdentity {
  connection: SsoConnection;
  user: SsoUser;
  email: string;
  staySignedIn: boolean;
  returnTo?: string | undefined;
}

export interface SsoHost {
  data: Database;
  now: () => number;
  sealer: Sealer;
  /** The public base URL for this request (PUBLIC_URL or the branded host's; never from headers). */
  baseUrl: (req: FastifyRequest) => string | Promise<string>;
  /** Opens the session of `identity.user` and answers (routes/singleSignOn.ts: completeAuthentication and a 303). */
  signIn: (req: FastifyRequest, reply: FastifyReply, identity: SsoIdentity) => Promise<FastifyReply>;
  log?: (message: string) => void;
}

/** saml-init for a user of `connection`: the URL to send the browser to. */
export async function ssoStart(
  host: SsoHost,
  connection: SsoConnection,
  req: FastifyRequest,
  reply: FastifyReply,
  options: { staySignedIn: boolean; returnTo?: string | undefined; loginHint?: string | undefined },
): Promise<{ ok: true; url: string } | { ok: false; message: string }> {
  const common = { data: host.data, now: host.now, baseUrl: await host.baseUrl(req), browserNonce: browserNonce(req, reply), ...options };
  if (connection.protocol === 'saml') return { ok: true, url: await startSaml(connection, common) };
  const started = await startOidc(connection, common);
  if (!started.ok) host.log?.(`sso: connection ${connection.id}: ${started.detail}`);
  return started.ok ? started : { ok: false, message: started.message };
}

function refusalPage(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(htmlPage('Single sign-on', `<h1>Single sign-on</h1><p role="alert">${escapeHtml(message)}</p><p><a href="/login">Back to sign in</a></p>`));
}

const params = { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]{1,12}$' } }, required: ['id'] } as const;

export interface SsoRoutesOptions {
  host?: SsoHost;
}

const sso: FastifyPluginAsync<SsoRoutesOptions> = async (app, options) => {
  const host = options.host;
  if (!host) throw new Error('routes/sso.ts needs a host (docs/delivery-and-sso.md, wiring)');
  // The assertion consumer takes the IdP's form post; nothing else here parses forms.
  await app.register(formbody, { bodyLimit: 256 * 1024 });

  const load = async <P extends 'saml' | 'oidc'>(id: string, protocol: P) => {
    const connection = await getConnection(host.data, Number(id), host.sealer);
    return connection && connection.enabled && connection.protocol === protocol ? (connection as Extract<SsoConnection, { protocol: P }>) : undefined;
  };

  const accept = async (
    req: FastifyRequest,
    reply: FastifyReply,
    connection: SsoConnection,
    result: { email: string; staySignedIn: boolean; returnTo?: string | undefined },
  ) => {
    const user = await userForIdentity(host.data, connection, result.email);
    // The account's state (disabled, trial expired, moved, …) is the host's to answer, as for any sign-in.
    if (!user) {
      host.log?.(`sso: connection ${connection.id} vouched for ${result.email}, who is not one of its users`);
      return refusalPage(reply, 403, `${result.email} cannot sign in through ${connection.name}. Ask your administrator to give this account single sign-on.`);
    }
    return host.signIn(req, reply, { connection, user, email: result.email, staySignedIn: result.staySignedIn, returnTo: result.returnTo });
  };

  app.get<{ Params: { id: string } }>('/sso/saml/:id/metadata', { schema: { params } }, async (req, reply) => {
    const connection = await load(req.params.id, 'saml');
    if (!connection) return refusalPage(reply, 404, 'There is no such SAML connection.');
    return reply
      .type('application/samlmetadata+xml; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(spMetadata(connection, await host.baseUrl(req), host.data, host.now));
  });

  app.post<{ Params: { id: string }; Body: Record<string, unknown> }>('/sso/saml/:id/acs', { schema: { params } }, async (req, reply) => {
    const connection = await load(req.params.id, 'saml');
    if (!connection) return refusalPage(reply, 404, 'There is no such SAML connection.');
    const body = (req.body ?? {}) as Record<string, unknown>;
    const result = await finishSaml(connection, body, {
      data: host.data,
      now: host.now,
      baseUrl: await host.baseUrl(req),
      browserNonce: req.cookies?.[SSO_COOKIE],
    });
    if (!result.ok) {
      host.log?.(`sso: SAML connection ${connection.id} refused a response (${result.reason}): ${result.detail}`);
      return refusalPage(reply, 400, result.message);
    }
    return accept(req, reply, connection, result);
  });

  app.get<{ Params: { id: string } }>('/sso/oidc/:id/callback', { schema: { params } }, async (req, reply) => {
    const connection = await load(req.params.id, 'oidc');
    if (!connection) return refusalPage(reply, 404, 'There is no such OpenID Connect connection.');
    const query = new URLSearchParams(req.url.split('?')[1] ?? '');
    const result = await finishOidc(connection, query, {
      data: host.data,
      now: host.now,
      baseUrl: await host.baseUrl(req),
      browserNonce: req.cookies?.[SSO_COOKIE],
    });
    if (!result.ok) {
      host.log?.(`sso: OIDC connection ${connection.id} refused a callback (${result.reason}): ${result.detail}`);
      return refusalPage(reply, 400, result.message);
    }
    return accept(req, reply, connection, result);
  });
};
export default sso;
