/**
 * /dev/saml-idp: the demo tenant's SAML identity provider (dev tools only; server/sso/demoSamlIdp.ts).
 * - GET  /dev/saml-idp/metadata  its metadata (entity ID, SSO URL, signing certificate);
 * - GET  /dev/saml-idp/sso       reads the SP's signed AuthnRequest, shows "Continue as {email}";
 * - POST /dev/saml-idp/sso       signs the assertion and shows the form that posts it to the SP's ACS.
 * The last page needs one more click (no script: the SPA's strict CSP forbids inline scripts).
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync } from 'fastify';
import { buildSamlResponse, demoIdpKeys, demoIdpMetadata, readAuthnRequest, DEMO_IDP_PATH } from '../sso/demoSamlIdp.js';
import { spUrls } from '../sso/saml.js';
import { escapeHtml } from './dev.js';
import { continueAsField, demoIdpContext, idpFailure, idpPage, typedEmail, TYPE_YOUR_EMAIL, type DemoIdpOptions } from './devIdp.js';

const TITLE = 'Demo IdP';

const devSamlIdp: FastifyPluginAsync<DemoIdpOptions> = async (app, options) => {
  const { data, sealer, now, baseUrl } = demoIdpContext(app, options);
  await app.register(formbody, { bodyLimit: 32 * 1024 });

  app.get(`${DEMO_IDP_PATH}/metadata`, async (_req, reply) => {
    const keys = await demoIdpKeys(data, now());
    return reply.type('application/samlmetadata+xml; charset=utf-8').send(demoIdpMetadata(baseUrl, keys.cert));
  });

  app.get(`${DEMO_IDP_PATH}/sso`, async (req, reply) => {
    const raw = req.url.split('?')[1] ?? '';
    try {
      const request = await readAuthnRequest(raw, data, sealer, baseUrl);
      const field = continueAsField(request.loginHint ?? '');
      return idpPage(
        reply,
        TITLE,
        200,
        `<p>Single sign-on to <strong>${escapeHtml(request.connection.name)}</strong>.</p>
<form method="post" action="${DEMO_IDP_PATH}/sso"><input type="hidden" name="request" value="${escapeHtml(raw)}">${field}</form>`,
      );
    } catch (error) {
      return idpFailure(reply, TITLE, (error as Error).message);
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
        const email = typedEmail(req.body.email);
        if (!email) throw new Error(TYPE_YOUR_EMAIL);
        const SAMLResponse = buildSamlResponse({
          keys: await demoIdpKeys(data, now()),
          baseUrl,
          spEntityId: spUrls(request.connection.id, baseUrl).entityId,
          acsUrl: request.acsUrl,
          inResponseTo: request.id,
          email,
          now: now(),
        });
        return idpPage(
          reply,
          TITLE,
          200,
          `<p>Signed in as <strong>${escapeHtml(email)}</strong>.</p>
<form method="post" action="${escapeHtml(request.acsUrl)}"><input type="hidden" name="SAMLResponse" value="${escapeHtml(SAMLResponse)}"><input type="hidden" name="RelayState" value="${escapeHtml(request.relayState)}"><button type="submit">Continue to ${escapeHtml(request.connection.name)}</button></form>`,
        );
      } catch (error) {
        return idpFailure(reply, TITLE, (error as Error).message);
      }
    },
  );
};
export default devSamlIdp;
