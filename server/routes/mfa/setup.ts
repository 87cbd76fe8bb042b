/**
 * Setting up a first factor under a set-up token (SETUP_MFA userToken): an authenticator app
 * (config-totp, login/totp), SMS (config-smsotp, change-phone, login/smsotp) and Duo (config-duo); the
 * security key is securityKey.ts. The token is spent once, in the transaction that enrols and starts
 * the session (services/signInExtras.ts finishSecondFactor). See docs/mfa.md.
 */
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import { isValidPhoneNumber } from 'libphonenumber-js/max';
import type { AppContext } from '../../context.js';
import { safeEqual } from '../../crypto/primitives.js';
import { DUO_CALLBACK_PATH } from '../../duo/universal.js';
import { rateLimited } from '../../errors.js';
import { loginTokenWithTry, openLoginToken } from '../../services/loginTokens.js';
import { consumeChallengeCode, enrol, enrolSmsPhone, holdSetupPhone, startTotpSetup, verifyConsecutiveTotp } from '../../services/mfa.js';
import { DUO_SETUP_STATE, LOGIN_TOKEN_TTL_MS, sendSmsCode } from '../../services/signIn.js';
import { finishSecondFactor } from '../../services/signInExtras.js';
import { isUnsupportedSmsRegion } from '../../services/users.js';
import { E164 } from '../../services/lists.js';
import { browserNonce } from '../../sso/browser.js';
import { operationRoute, type OperationRequest } from '../operation.js';
import { INVALID_MFA_CODE, INVALID_USER_TOKEN } from './answers.js';

/** The signed token of the demo Duo enrolment page (/dev/duo?setup=, routes/devDuo.ts). */
export const DUO_SETUP_PURPOSE = 'duo-setup';

async function configTotp(ctx: AppContext, req: OperationRequest<'configTotp'>) {
  const open = await openLoginToken(ctx, req, req.body.userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  const { key, qrUrl } = await startTotpSetup(ctx, open.row, open.user.email);
  return { resultCode: 'SUCCESS', key, qrUrl };
}

async function loginTotp(ctx: AppContext, req: OperationRequest<'loginTotp'>, reply: FastifyReply) {
  const { key, code, secondaryCode, userToken } = req.body;
  const open = await loginTokenWithTry(ctx, req, userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  const pending = open.row.pending_secret ? ctx.unseal(open.row.pending_secret) : undefined;
  const check = pending !== undefined && safeEqual(pending, key) ? await verifyConsecutiveTotp(ctx, key, code, secondaryCode) : { ok: false };
  if (!check.ok) return INVALID_MFA_CODE;
  return finishSecondFactor(ctx, req, reply, open, (t) => enrol(ctx, t, req, open.user, 'TOTP', { secret: key, totpLastStep: check.step }));
}

async function configSmsotp(ctx: AppContext, req: OperationRequest<'configSmsotp'>, reply: FastifyReply) {
  const open = await openLoginToken(ctx, req, req.body.userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  // A number typed in this setup (change-phone) gets the code; it is stored once the code comes back.
  const phone = open.row.pending_phone ?? open.user.phone;
  if (!phone) return { resultCode: 'PHONE_REQUIRED' };
  if (isUnsupportedSmsRegion(phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
  const sent = await sendSmsCode(ctx, open.user, open.row.token_hash, phone);
  if (sent.textRefusedFor) return rateLimited(reply, sent.textRefusedFor, 'Too many texts');
  if (sent.textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure: sent.textFailure };
  return { resultCode: 'SUCCESS', sendSms: true };
}

async function loginSmsotp(ctx: AppContext, req: OperationRequest<'loginSmsotp'>, reply: FastifyReply) {
  const { code, userToken } = req.body;
  const open = await loginTokenWithTry(ctx, req, userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  const challenge = await consumeChallengeCode(ctx, open.row.token_hash, 'SMSOTP', code);
  // The code proves the number it was sent to: that number is enrolled (and becomes the account's).
  const phone = challenge?.phone ?? (challenge ? open.user.phone : null);
  if (!phone) return INVALID_MFA_CODE;
  return finishSecondFactor(ctx, req, reply, open, (t) => enrolSmsPhone(ctx, t, req, open.user, phone));
}

async function changePhone(ctx: AppContext, req: OperationRequest<'changePhone'>) {
  const { userToken, phoneNumber } = req.body;
  const open = await openLoginToken(ctx, req, userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  if (!E164.test(phoneNumber) || !isValidPhoneNumber(phoneNumber)) return { resultCode: 'INVALID_PHONE' };
  if (isUnsupportedSmsRegion(phoneNumber)) return { resultCode: 'INVALID_COUNTRY_REGION' };
  await holdSetupPhone(ctx, open.row, phoneNumber);
  return { resultCode: 'SUCCESS', phoneNumber };
}

async function configDuo(ctx: AppContext, req: OperationRequest<'configDuo'>, reply: FastifyReply) {
  const { userToken, returnTo } = req.body;
  const open = await openLoginToken(ctx, req, userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  if (await ctx.duo.available(open.user.organization_id)) {
    // Duo Universal Prompt: Duo enrols the user in its own prompt; the callback enrols DUO here and signs in.
    const started = await ctx.duo.start(ctx.data, {
      loginTokenHash: `${DUO_SETUP_STATE}${open.row.token_hash}`,
      username: open.user.email,
      browserNonce: browserNonce(req, reply),
      now: ctx.now(),
      organizationId: open.user.organization_id,
    });
    if (!started.ok) req.log.warn(`duo: ${started.detail}`);
    return { resultCode: 'SUCCESS', duoMfaUrl: started.ok ? started.url : `${DUO_CALLBACK_PATH}?unavailable=1` };
  }
  // The demo Duo enrolment page (/dev/duo?setup=) enrols DUO and signs in; a real tenant points at Duo.
  const setup = ctx.tokens.sign(DUO_SETUP_PURPOSE, LOGIN_TOKEN_TTL_MS, {
    uid: open.user.id,
    th: open.row.token_hash,
    rt: returnTo ?? open.row.return_to ?? null,
  });
  return { resultCode: 'SUCCESS', duoMfaUrl: `/dev/duo?setup=${encodeURIComponent(setup)}` };
}

export function setupRoutes(app: FastifyInstance, options: RouteShorthandOptions): void {
  const ctx = app.fd;
  operationRoute(app, 'configTotp', (req) => configTotp(ctx, req), options);
  operationRoute(app, 'loginTotp', (req, reply) => loginTotp(ctx, req, reply), options);
  operationRoute(app, 'configSmsotp', (req, reply) => configSmsotp(ctx, req, reply), options);
  operationRoute(app, 'loginSmsotp', (req, reply) => loginSmsotp(ctx, req, reply), options);
  operationRoute(app, 'changePhone', (req) => changePhone(ctx, req), options);
  operationRoute(app, 'configDuo', (req, reply) => configDuo(ctx, req, reply), options);
}
