/**
 * /dev/duo: the demo Duo prompt (demo mode only).
 * - ?channel=<duoChannelId> (sign-in): Approve makes a one-time code and delivers it on the realtime
 *   channel (GET /ws/account/duo-channel/{id}); Deny delivers {error:"DENIED"}.
 * - ?setup=<signed token> (config-duo): Approve enrols DUO as the PRIMARY method and signs in.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { sha256, sixDigitCode } from '../services/crypto.js';
import { duoHub, enrol, openTokenByHash, useToken } from '../services/mfa.js';
import { completeAuthentication, safeReturnTo } from '../services/signIn.js';
import { findUserById } from '../services/users.js';
import { escapeHtml, htmlPage } from './dev.js';
import { DUO_SETUP_PURPOSE } from './mfa.js';

function page(reply: FastifyReply, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(htmlPage('Demo Duo', `<h1>Demo Duo</h1>${body}`));
}

const query = {
  type: 'object',
  additionalProperties: false,
  properties: { channel: { type: 'string', maxLength: 128 }, setup: { type: 'string', maxLength: 4096 } },
} as const;
const body = {
  type: 'object',
  properties: { channel: { type: 'string', maxLength: 128 }, setup: { type: 'string', maxLength: 4096 }, decision: { enum: ['approve', 'deny'] } },
  required: ['decision'],
} as const;

interface DuoChannelRow {
  id: number;
  user_id: number;
  expires_at: number;
}

const devDuo: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  await app.register(formbody, { bodyLimit: 16384 });

  const openChannel = (channel: string | undefined) =>
    channel
      ? (ctx.db
          .prepare("SELECT id, user_id, expires_at FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ? AND used_at IS NULL AND expires_at > ?")
          .get(channel, ctx.now()) as DuoChannelRow | undefined)
      : undefined;

  const buttons = (field: 'channel' | 'setup', value: string) => `<form method="post" action="/dev/duo">
<input type="hidden" name="${field}" value="${escapeHtml(value)}">
<button type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="deny">Deny</button></form>`;

  app.get<{ Querystring: { channel?: string; setup?: string } }>('/dev/duo', { schema: { querystring: query } }, async (req, reply) => {
    const { channel, setup } = req.query;
    if (setup) {
      const payload = ctx.tokens.read(setup, DUO_SETUP_PURPOSE);
      const user = payload ? findUserById(ctx.db, Number(payload.uid)) : undefined;
      if (!user) return page(reply, 400, '<p>This Duo enrolment request is invalid or has expired.</p>');
      return page(reply, 200, `<p>Enrol Duo for <strong>${escapeHtml(user.email)}</strong>?</p>${buttons('setup', setup)}`);
    }
    const row = openChannel(channel);
    const user = row ? findUserById(ctx.db, row.user_id) : undefined;
    if (!row || !user || !channel) return page(reply, 400, '<p>This Duo prompt is invalid or has expired.</p>');
    return page(reply, 200, `<p>Sign-in request for <strong>${escapeHtml(user.email)}</strong>.</p>${buttons('channel', channel)}`);
  });

  app.post<{ Body: { channel?: string; setup?: string; decision: 'approve' | 'deny' } }>('/dev/duo', { schema: { body } }, async (req, reply) => {
    const { channel, setup, decision } = req.body;
    if (setup) {
      const payload = ctx.tokens.consume(setup, DUO_SETUP_PURPOSE);
      // The setup token must still be open (unused, unexpired): the same rules as the API.
      const open = payload ? openTokenByHash(ctx, String(payload.th), 'SETUP_MFA') : undefined;
      if (!payload || !open) return page(reply, 400, '<p>This Duo enrolment request is invalid, used or expired.</p>');
      if (decision === 'deny') return page(reply, 200, '<p>Enrolment denied. <a href="/login">Back to sign-in</a></p>');
      enrol(ctx, req, open.user, 'DUO');
      useToken(ctx, open.row);
      completeAuthentication(ctx, req, reply, open.user, open.row.stay_signed_in === 1);
      const target = safeReturnTo(payload.rt) ?? (open.user.user_type === 'END_USER' ? '/eus/' : '/app/');
      return reply.code(303).header('Location', target).header('Cache-Control', 'no-store').send();
    }
    const row = openChannel(channel);
    if (!row || !channel) return page(reply, 400, '<p>This Duo prompt is invalid or has expired.</p>');
    if (decision === 'deny') {
      duoHub(ctx).publish(channel, { error: 'DENIED' }, row.expires_at);
      return page(reply, 200, '<p>Denied. You can close this window.</p>');
    }
    const code = sixDigitCode();
    ctx.db.prepare('UPDATE mfa_challenges SET code_hash = ? WHERE id = ?').run(sha256(code), row.id);
    duoHub(ctx).publish(channel, { mfaCode: code }, row.expires_at);
    return page(reply, 200, '<p>Approved. You can close this window.</p>');
  });
};
export default devDuo;
