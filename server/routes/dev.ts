/**
 * Development tools (registered only in demo mode, see config.ts devToolsWanted): the outbox, reset of the demo
 * tenant, and the demo identity provider that saml-init sends SSO users to.
 */
import formbody from '@fastify/formbody';
import type { FastifyInstance, FastifyPluginAsync, FastifyReply } from 'fastify';
import { escapeHtml } from '../security/html.js';
import { sameBrowser } from '../services/browserBinding.js';
import { completeAuthentication, safeReturnTo } from '../services/signIn.js';
import { findUserById } from '../db/accounts.js';
import { IDP_REQUEST_PURPOSE } from './idpRequest.js';
import { answerSignIn } from './signInAnswer.js';

export { escapeHtml };

export function htmlPage(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;margin:2rem;color:#1f2937}table{border-collapse:collapse}
td,th{border:1px solid #d1d5db;padding:.35rem .6rem;text-align:left;vertical-align:top}button{font-size:1rem;padding:.5rem 1rem}</style>
</head><body>${body}</body></html>`;
}

function sendHtml(reply: FastifyReply, status: number, html: string): FastifyReply {
  return reply.code(status).header('Cache-Control', 'no-store').type('text/html; charset=utf-8').send(html);
}

/** The outbox (what the demo tenant's emails and texts said), as JSON and as a page, and the demo tenant's reset. */
function outboxRoutes(app: FastifyInstance): void {
  const ctx = app.fd;
  app.get<{ Querystring: { to?: string } }>(
    '/dev/outbox',
    {
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { to: { type: 'string', maxLength: 320 } } } },
    },
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return await ctx.outbox.list(req.query.to || undefined);
    },
  );

  app.get<{ Querystring: { to?: string } }>(
    '/dev/outbox.html',
    {
      schema: { querystring: { type: 'object', additionalProperties: false, properties: { to: { type: 'string', maxLength: 320 } } } },
    },
    async (req, reply) => {
      const to = req.query.to || undefined;
      const rows = (await ctx.outbox.list(to))
        .map(
          (m) => `<tr><td>${escapeHtml(m.createdAt)}</td><td>${escapeHtml(m.channel)}</td><td>${escapeHtml(m.to)}</td>
<td>${escapeHtml(m.subject)}</td><td>${escapeHtml(m.text)}</td><td>${m.link ? `<a href="${escapeHtml(m.link)}">${escapeHtml(m.link)}</a>` : ''}</td><td><code>${escapeHtml(m.code)}</code></td></tr>`,
        )
        .join('\n');
      return sendHtml(
        reply,
        200,
        htmlPage(
          'Outbox',
          `<h1>Outbox${to ? ` for ${escapeHtml(to)}` : ''}</h1>
<form method="get"><label>To <input name="to" value="${escapeHtml(to)}"></label> <button>Filter</button></form>
<table><thead><tr><th>Created</th><th>Channel</th><th>To</th><th>Subject</th><th>Text</th><th>Link</th><th>Code</th></tr></thead>
<tbody>${rows || '<tr><td colspan="7">No messages</td></tr>'}</tbody></table>`,
        ),
      );
    },
  );

  app.post('/dev/reset', async () => {
    await ctx.reseed();
    return { ok: true };
  });
}

/** The demo identity provider that saml-init sends SSO users to: its page, and its answer (the sign-in completed, bound to saml-init's browser). */
function demoIdpRoutes(app: FastifyInstance): void {
  const ctx = app.fd;
  app.get<{ Querystring: { request: string } }>(
    '/dev/idp',
    {
      schema: {
        querystring: { type: 'object', additionalProperties: false, properties: { request: { type: 'string', maxLength: 4096 } }, required: ['request'] },
      },
    },
    async (req, reply) => {
      const { request } = req.query;
      const payload = ctx.tokens.read(request, IDP_REQUEST_PURPOSE);
      const user = payload ? await findUserById(ctx.data, Number(payload.uid)) : undefined;
      if (!payload || !user)
        return sendHtml(
          reply,
          400,
          htmlPage('Demo IdP', '<h1>Demo IdP</h1><p>This sign-in request is invalid or has expired.</p><p><a href="/login">Back to sign-in</a></p>'),
        );
      return sendHtml(
        reply,
        200,
        htmlPage(
          'Demo IdP',
          `<h1>Demo IdP</h1><p>Single sign-on for <strong>${escapeHtml(user.email)}</strong>.</p>
<form method="post" action="/dev/idp"><input type="hidden" name="request" value="${escapeHtml(request)}">
<button type="submit">Continue as ${escapeHtml(user.email)}</button></form>`,
        ),
      );
    },
  );

  app.post<{ Body: { request: string } }>(
    '/dev/idp',
    {
      schema: { body: { type: 'object', properties: { request: { type: 'string', maxLength: 4096 } }, required: ['request'] } },
    },
    async (req, reply) => {
      // Read first: a request presented by another browser than saml-init's is refused without being spent.
      const unspent = ctx.tokens.read(req.body.request, IDP_REQUEST_PURPOSE);
      const sameClient = unspent !== null && sameBrowser(ctx, req, typeof unspent.bh === 'string' ? unspent.bh : null);
      const payload = sameClient ? await ctx.tokens.consume(req.body.request, IDP_REQUEST_PURPOSE) : null;
      const user = payload ? await findUserById(ctx.data, Number(payload.uid)) : undefined;
      if (!payload || !user || user.sso_state !== 'CONFIGURED') {
        return sendHtml(
          reply,
          400,
          htmlPage('Demo IdP', '<h1>Demo IdP</h1><p>This sign-in request is invalid, used or expired.</p><p><a href="/login">Back to sign-in</a></p>'),
        );
      }
      // The account's state as for every sign-in (completeAuthentication), answered as the sign-in page would.
      const result = await completeAuthentication(ctx, req, reply, user, payload.ssi === true);
      return answerSignIn(ctx, req, reply, result, safeReturnTo(payload.rt) ?? (user.user_type === 'END_USER' ? '/eus/' : '/app/'));
    },
  );
}

const dev: FastifyPluginAsync = async (app) => {
  // Form posts (the demo IdP button) are accepted in this plugin only; the API stays JSON-only.
  await app.register(formbody, { bodyLimit: 16384 });
  outboxRoutes(app);
  demoIdpRoutes(app);
};
export default dev;
