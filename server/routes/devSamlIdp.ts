/**
 * /dev/saml-idp: the demo tenant's SAML identity provider (dev tools only; server/sso/demoSamlIdp.ts).
 * - GET  /dev/saml-idp/metadata  its metadata (entity ID, SSO URL, signing certificate);
 * - GET  /dev/saml-idp/sso       reads the SP's signed AuthnRequest, shows "Continue as {email}";
 * - POST /dev/saml-idp/sso       signs the assertion and shows the form that posts it to the SP's ACS.
 * The last page needs one more click (no script: the SPA's strict CSP forbids inline scripts).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { Database } from '../db/data.js';
import type { Sealer } from '../sso/connections.js';
import { buildSamlResponse, demoIdpKeys, demoIdpMetadata, readAuthnRequest, DEMO_IDP_PATH } from '../sso/demoSamlIdp.js';
import { spUrls } from '../sso/saml.js';
import { escapeHtml, htmlPage } from './dev.js';

export interface DemoIdpOptions {
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
    .send(htmlPage('Demo IdP', `<h1>Demo IdP</h1>${body}`));
}

const devSamlIdp: FastifyPluginAsync<DemoIdpOptions> = async (app, options) => {
  const data = options.data ?? app.fd.data;
  const sealer = options.sealer ?? { seal: app.fd.seal, unseal: app.fd.unseal };
  const now = options.now ?? app.fd.now;
  const baseUrl = options.baseUrl ?? app.fd.config.publicUrl;
  await app.register(formbody, { bodyLimit: 32 * 1024 });

  app.get(`${DEMO_IDP_PATH}/metadata`, async (_req, reply) => {
    const keys = await demoIdpKeys(data, now());
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(demoIdpMetadata(baseUrl, keys.cert));
  });

  app.get(`${DEMO_IDP_PATH}/sso`, async (req, reply) => {
    const raw = req.url.split('?')[1] ?? '';
    try {
      const request = await readAuthnRequest(raw, data, sealer, baseUrl);
      const email = request.loginHint ?? '';
      const field = email
        ? `<input type="hidden" name="email" value="${escapeHtml(email)}"><button type="submit">Continue as ${escapeHtml(email)}</button>`
        : '<label>Email <input name="email" type="email" autocomplete="username" required></label> <button type="submit">Continue</button>';
      return page(
        reply,
        200,
        `<p>Single sign-on to <strong>${escapeHtml(request.connection.name)}</strong>.</p>
<form method="post" action="${DEMO_IDP_PATH}/sso"><input type="hidden" name="request" value="${escapeHtml(raw)}">${field}</form>`,
      );
    } catch (error) {
      return page(reply, 400, `<p role="alert">${escapeHtml((error as Error).message)}</p><p><a href="/login">Back to sign in</a></p>`);
    }
  });

  app.post<{ Body: { request?: string; email?: string } }>(
    `${DEMO_IDP_PATH}/sso`,
    {
      schema: {
        body: {
          type: 'object',
          properties: { request: { type: 'string', maxLength: 16384 }, email: { type: 'string', maxLength: 320 } },
          required: ['request', 'email'],
        },
      },
    },
    async (req, reply) => {
      try {
        const request = await readAuthnRequest(req.body.request ?? '', data, sealer, baseUrl);
        const email = (req.body.email ?? '').trim();
        if (!/^[^@\s]+@[^@\s]+$/.test(email)) throw new Error('Type the email address to sign in with.');
        const SAMLResponse = buildSamlResponse({
          keys: await demoIdpKeys(data, now()),
          baseUrl,
          spEntityId: spUrls(request.connection.id, baseUrl).entityId,
          acsUrl: request.acsUrl,
          inResponseTo: request.id,
          email,
          now: now(),
        });
        return page(
          reply,
          200,
          `<p>Signed in as <strong>${escapeHtml(email)}</strong>.</p>
<form method="post" action="${escapeHtml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(SAMLResponse)}"><input type="hidden" name="RelayState" value="${escapeHtml(request.relayState)}"><button type="submit">Continue to ${escapeHtml(request.connection.name)}</button></form>`,
        );
      } catch (error) {
        return page(reply, 400, `<p role="alert">${escapeHtml((error as Error).message)}</p><p><a href="/login">Back to sign in</a></p>`);
      }
    },
  );
};
export default devSamlIdp;
