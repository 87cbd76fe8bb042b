/**
 * GET /.well-known/webauthn (WebAuthn Related Origin Requests, issue 37): `{"origins": [...]}`, the
 * origins that make and use passkeys of the deployment's one RP ID (WEBAUTHN_RP_ID): PUBLIC_URL's and
 * every enabled branded host's (services/relyingParty.ts). A browser on a branded host outside the RP
 * ID's domain fetches it from https://{RP ID}/.well-known/webauthn before it lets that page use the RP
 * ID. Served on every host this server answers (the Host allow-list applies), as JSON; without a
 * shared RP ID each host is its own and there is nothing to list: 404. Cached a few minutes, the
 * branding cache's rows being read again every few seconds (a new branded host is listed soon).
 */
import type { FastifyPluginAsync } from 'fastify';
import { apiError } from '../errors.js';
import { relatedOrigins } from '../services/relyingParty.js';

export const WELL_KNOWN_WEBAUTHN = '/.well-known/webauthn';
const MAX_AGE_S = 300;

const wellKnown: FastifyPluginAsync = async (app) => {
  app.get(WELL_KNOWN_WEBAUTHN, async (_req, reply) => {
    const origins = relatedOrigins(app.fd);
    if (!origins) return apiError(reply, 404, 'NOT_FOUND', 'This deployment has no shared WebAuthn RP ID (WEBAUTHN_RP_ID)');
    return reply.header('Cache-Control', `public, max-age=${MAX_AGE_S}`).type('application/json').send({ origins });
  });
};
export default wellKnown;
