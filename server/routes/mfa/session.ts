/**
 * The Verify MFA modal (a cookie session, no token): switch-mfa-session starts a challenge of one of the
 * account's methods, verify-mfa-session checks its code or assertion; at most 5 wrong per session and
 * the account's hourly budget (services/mfa.ts reserveSessionTry).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { enrolments } from '../../db/mfa.js';
import { rateLimited } from '../../errors.js';
import { consumeSessionCode, reserveSessionTry, sessionCodeAccepted, verifyTotp } from '../../services/mfa.js';
import { keyAssertionForSession } from '../../services/securityKeys.js';
import { startMfaChallenge } from '../../services/signIn.js';
import { isUnsupportedSmsRegion, type MfaType } from '../../services/users.js';
import { parseAssertion } from '../../services/webauthn.js';
import { operationRoute, type OperationRequest } from '../operation.js';
import { INVALID_LOGIN_TOKEN, INVALID_MFA_CODE } from './answers.js';

/** The modal's session and its enrolment of `type` (never cached), or the answer that refuses it. */
async function sessionEnrolment(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, type: MfaType) {
  reply.header('Cache-Control', 'no-store');
  const current = await ctx.sessions.current(req);
  if (!current) return { refused: INVALID_LOGIN_TOKEN };
  const enrolment = (await enrolments(ctx.data, current.user.id)).find((e) => e.type === type);
  return enrolment ? { current, enrolment } : { refused: { resultCode: 'MFA_NOT_CONFIGURED' } as const };
}

/** credsRequest of the Verify MFA modal: the request options JSON, base64url encoded (SPEC §3 extended MFA response). */
const base64urlJson = (json: string): string => Buffer.from(json, 'utf8').toString('base64url');

async function switchMfaSession(ctx: AppContext, req: OperationRequest<'switchMfaSession'>, reply: FastifyReply) {
  const { mfaType } = req.body;
  const found = await sessionEnrolment(ctx, req, reply, mfaType);
  if ('refused' in found) return found.refused;
  const { current, enrolment } = found;
  if (mfaType === 'SMSOTP' && isUnsupportedSmsRegion(enrolment.phone ?? current.user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
  const { textRefusedFor, textFailure, ...started } = await startMfaChallenge(ctx, current.user, null, mfaType, { req, reply });
  if (textRefusedFor) return rateLimited(reply, textRefusedFor, 'Too many texts');
  if (textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure };
  if (mfaType === 'SMSOTP' && !started.sendSms) return { resultCode: 'PHONE_REQUIRED' };
  const { credsRequest, ...rest } = started;
  return { resultCode: 'SUCCESS', ...rest, ...(credsRequest ? { credsRequest: base64urlJson(credsRequest) } : {}) };
}

async function verifyMfaSession(ctx: AppContext, req: OperationRequest<'verifyMfaSession'>, reply: FastifyReply) {
  const { mfaType, mfaCode, publicKeyCredentialEncoded } = req.body;
  const found = await sessionEnrolment(ctx, req, reply, mfaType);
  if ('refused' in found) return found.refused;
  const { current, enrolment } = found;
  const userId = current.user.id;
  // At most 5 wrong codes per session (and the account's hourly budget), counted before the check:
  // then the modal answers INVALID_LOGIN_TOKEN ('Token expired') whatever the code.
  if (!(await reserveSessionTry(ctx, current.sessionId, userId))) return INVALID_LOGIN_TOKEN;
  let ok = false;
  if (mfaType === 'TOTP') {
    ok = await verifyTotp(ctx, enrolment, mfaCode ?? '');
  } else if (mfaType === 'SMSOTP' || mfaType === 'DUO') {
    ok = await consumeSessionCode(ctx, userId, mfaType, mfaCode ?? '');
  } else {
    const assertion = parseAssertion(publicKeyCredentialEncoded ?? '');
    if (!assertion) return { resultCode: 'MALFORMED_CREDENTIAL' };
    ok = await keyAssertionForSession(ctx, req, userId, assertion);
  }
  if (!ok) return INVALID_MFA_CODE;
  await sessionCodeAccepted(ctx, current.sessionId, userId);
  return { resultCode: 'SUCCESS' };
}

export function sessionRoutes(app: FastifyInstance, options: RouteShorthandOptions): void {
  const ctx = app.fd;
  operationRoute(app, 'switchMfaSession', (req, reply) => switchMfaSession(ctx, req, reply), options);
  operationRoute(app, 'verifyMfaSession', (req, reply) => verifyMfaSession(ctx, req, reply), options);
}
