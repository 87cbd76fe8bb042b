/**
 * GET /duo/callback: where Duo's Universal Prompt sends the popup back (?duo_code=…&state=…). The state
 * is single use and bound to the browser that opened the prompt (server/duo/universal.ts); the code is
 * exchanged at Duo's token endpoint. A sign-in prompt then answers on its channel as the demo Duo does
 * (the visitor's page receives a one-time code over duo-channel and finishes mfa-login); an enrolment
 * enrols DUO, signs in and goes on to the recovery codes. Every refusal is a page, never a 500.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { DUO_CALLBACK_PATH, DUO_REFUSALS } from '../duo/universal.js';
import { SSO_COOKIE } from '../sso/browser.js';
import { answerSignIn } from './signInAnswer.js';
import { sha256, sixDigitCode } from '../crypto/primitives.js';
import { openDuoChannel, publishDuo } from '../services/duo.js';
import { openLoginTokenByHash } from '../services/loginTokens.js';
import { enrol } from '../services/mfa.js';
import { DUO_CHANNEL_STATE, DUO_SETUP_STATE, finishWithToken, safeReturnTo } from '../services/signIn.js';
import { afterSecondFactor } from '../services/signInExtras.js';
import { escapeHtml, htmlPage } from './dev.js';

function page(reply: FastifyReply, status: number, message: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(htmlPage('Duo', `<h1>Duo</h1><p role="${status === 200 ? 'status' : 'alert'}">${escapeHtml(message)}</p>`));
}

const CLOSE = 'You can close this window.';

const query = {
  type: 'object',
  properties: {
    duo_code: { type: 'string', maxLength: 4096 },
    state: { type: 'string', maxLength: 1024 },
    unavailable: { type: 'string', maxLength: 8 },
  },
} as const;

const duoCallback: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  app.get<{ Querystring: { duo_code?: string; state?: string; unavailable?: string } }>(
    DUO_CALLBACK_PATH,
    { schema: { querystring: query } },
    async (req, reply) => {
      if (req.query.unavailable) return page(reply, 503, DUO_REFUSALS.DUO_UNAVAILABLE);
      // The state names the Duo application (a tenant's own, or the deployment's) that started it.
      const result = await ctx.duo.finish(ctx.data, {
        state: req.query.state,
        code: req.query.duo_code,
        browserNonce: req.cookies?.[SSO_COOKIE],
        now: ctx.now(),
      });
      if (!result.ok) {
        req.log.warn(`duo: callback refused (${result.reason}): ${result.detail}`);
        return page(reply, result.reason === 'DUO_UNAVAILABLE' ? 503 : 400, result.message);
      }
      if (result.loginTokenHash.startsWith(DUO_CHANNEL_STATE)) {
        const channel = await openDuoChannel(ctx, result.loginTokenHash.slice(DUO_CHANNEL_STATE.length));
        if (!channel) return page(reply, 400, DUO_REFUSALS.STATE_UNKNOWN);
        // Written to the database: the visitor's event stream may be held by another instance.
        const code = sixDigitCode();
        await publishDuo(ctx, channel, { mfaCode: code }, sha256(code));
        return page(reply, 200, `Approved. ${CLOSE}`);
      }
      if (result.loginTokenHash.startsWith(DUO_SETUP_STATE)) {
        const open = await openLoginTokenByHash(ctx, req, result.loginTokenHash.slice(DUO_SETUP_STATE.length), 'SETUP_MFA');
        if (!open) return page(reply, 400, DUO_REFUSALS.STATE_UNKNOWN);
        // Token spent, DUO enrolled with its notice, session started: one transaction.
        const signedIn = await finishWithToken(ctx, req, reply, open, (t) => enrol(ctx, t, req, open.user, 'DUO'));
        if (!signedIn) return page(reply, 400, DUO_REFUSALS.STATE_UNKNOWN);
        if (signedIn.resultCode === 'SUCCESS') await afterSecondFactor(ctx, req, reply, open.row, open.user);
        const returnTo = safeReturnTo(open.row.return_to);
        return answerSignIn(ctx, req, reply, signedIn, `/mfa/recovery-codes${returnTo ? `?return_to=${encodeURIComponent(returnTo)}` : ''}`);
      }
      return page(reply, 400, DUO_REFUSALS.STATE_UNKNOWN);
    },
  );
};
export default duoCallback;
