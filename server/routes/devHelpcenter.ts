/**
 * /dev/helpcenter: the demo help centre (dev tools only). It accepts the single-sign-on form post
 * POST /dev/helpcenter/access/jwt?return_to=... (field jwt, form-encoded), verifies the token and
 * shows who signed in.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { verifyJwt } from '../services/jwt.js';
import { publicBase } from '../services/publicUrl.js';
import { escapeHtml, htmlPage } from './dev.js';

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

const devHelpcenter: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  await app.register(formbody, { bodyLimit: 16384 });

  app.get('/dev/helpcenter', async (_req, reply) =>
    sendHtml(
      reply,
      200,
      htmlPage('Demo help centre', '<h1>Demo help centre</h1><p>Not signed in. Open the help centre from the app to sign in with single sign-on.</p>'),
    ),
  );

  app.post<{ Querystring: { return_to?: string }; Body: { jwt: string } }>(
    '/dev/helpcenter/access/jwt',
    {
      schema: {
        querystring: { type: 'object', properties: { return_to: { type: 'string', maxLength: 2048 } } },
        body: { type: 'object', properties: { jwt: { type: 'string', maxLength: 8192 } }, required: ['jwt'] },
      },
    },
    async (req, reply) => {
      // This demo help centre lives on the public base URL: tokens for other sites are refused.
      const origin = new URL(publicBase(ctx, req)).origin;
      const claims = ctx.secrets.helpCenterJwt
        ? await verifyJwt(req.body.jwt, ctx.secrets.helpCenterJwt, { nowMs: ctx.now(), audience: origin, issuer: origin })
        : null;
      if (!claims) {
        return sendHtml(reply, 401, htmlPage('Demo help centre', '<h1>Demo help centre</h1><p>The sign-in token is invalid or has expired.</p>'));
      }
      const returnTo = req.query.return_to;
      return sendHtml(
        reply,
        200,
        htmlPage(
          'Demo help centre',
          `<h1>Help centre — signed in as ${escapeHtml(claims.email)}</h1>
<p>Name: ${escapeHtml(claims.name)}</p>${returnTo ? `<p>Requested page: <code>${escapeHtml(returnTo)}</code></p>` : ''}`,
        ),
      );
    },
  );
};
export default devHelpcenter;
