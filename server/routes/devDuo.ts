/**
 * /dev/duo: the demo Duo prompt (demo mode only).
 * - ?channel=<duoChannelId> (sign-in): Approve makes a one-time code and delivers it on the realtime
 *   channel (GET /ws/account/duo-channel/{id}); Deny delivers {error:"DENIED"}.
 * - ?setup=<signed token> (config-duo): Approve enrols DUO as the PRIMARY method and signs in.
 */
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { sha256, sixDigitCode } from '../crypto/primitives.js';
import { openDuoChannel, publishDuo } from '../services/duo.js';
import { openLoginTokenByHash } from '../services/loginTokens.js';
import { enrol } from '../services/mfa.js';
import { finishWithToken, safeReturnTo } from '../services/signIn.js';
import { afterSecondFactor } from '../services/signInExtras.js';
import { findUserById } from '../db/accounts.js';
import { escapeHtml, htmlPage } from './dev.js';
import { DUO_SETUP_PURPOSE } from './mfa/setup.js';
import { answerSignIn } from './signInAnswer.js';

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

const devDuo: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  await app.register(formbody, { bodyLimit: 16384 });

  const buttons = (field: 'channel' | 'setup', value: string) => `<form method="post" action="/dev/duo">
<input type="hidden" name="${field}" value="${escapeHtml(value)}">
<button type="submit" name="decision" value="approve">Approve</button> <button type="submit" name="decision" value="deny">Deny</button></form>`;

  app.get<{ Querystring: { channel?: string; setup?: string } }>('/dev/duo', { schema: { querystring: query } }, async (req, reply) => {
    const { channel, setup } = req.query;
    if (setup) {
      const payload = ctx.tokens.read(setup, DUO_SETUP_PURPOSE);
      const user = payload ? await findUserById(ctx.data, Number(payload.uid)) : undefined;
      if (!user) return page(reply, 400, '<p>This Duo enrolment request is invalid or has expired.</p>');
      return page(reply, 200, `<p>Enrol Duo for <strong>${escapeHtml(user.email)}</strong>?</p>${buttons('setup', setup)}`);
    }
    const row = await openDuoChannel(ctx, channel);
    const user = row ? await findUserById(ctx.data, row.userId) : undefined;
    if (!row || !user || !channel) return page(reply, 400, '<p>This Duo prompt is invalid or has expired.</p>');
    return page(reply, 200, `<p>Sign-in request for <strong>${escapeHtml(user.email)}</strong>.</p>${buttons('channel', channel)}`);
  });

  app.post<{ Body: { channel?: string; setup?: string; decision: 'approve' | 'deny' } }>('/dev/duo', { schema: { body } }, async (req, reply) => {
    const { channel, setup, decision } = req.body;
    if (setup) {
      const payload = await ctx.tokens.consume(setup, DUO_SETUP_PURPOSE);
      // The setup token must still be open (unused, unexpired): the same rules as the API.
      // The popup shares the visitor's browser: the setup token must be that browser's too.
      const open = payload ? await openLoginTokenByHash(ctx, req, String(payload.th), 'SETUP_MFA') : undefined;
      if (!payload || !open) return page(reply, 400, '<p>This Duo enrolment request is invalid, used or expired.</p>');
      if (decision === 'deny') return page(reply, 200, '<p>Enrolment denied. <a href="/login">Back to sign-in</a></p>');
      // Token spent, DUO enrolled with its notice, session started: one transaction.
      const result = await finishWithToken(ctx, req, reply, open, (t) => enrol(ctx, t, req, open.user, 'DUO'));
      if (!result) return page(reply, 400, '<p>This Duo enrolment request is invalid, used or expired.</p>');
      // A first factor was set up: its recovery codes are shown next, then the way on (screens/recoveryCodes.json).
      if (result.resultCode === 'SUCCESS') await afterSecondFactor(ctx, req, reply, open.row, open.user);
      const returnTo = safeReturnTo(payload.rt);
      return answerSignIn(ctx, req, reply, result, `/mfa/recovery-codes${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
    }
    const row = await openDuoChannel(ctx, channel);
    if (!row || !channel) return page(reply, 400, '<p>This Duo prompt is invalid or has expired.</p>');
    // Written to the database: the visitor's event stream may be held by another instance.
    if (decision === 'deny') {
      await publishDuo(ctx, row, { error: 'DENIED' });
      return page(reply, 200, '<p>Denied. You can close this window.</p>');
    }
    const code = sixDigitCode();
    await publishDuo(ctx, row, { mfaCode: code }, sha256(code));
    return page(reply, 200, '<p>Approved. You can close this window.</p>');
  });
};
export default devDuo;
