/**
 * The second factor at sign-in, under a login token (mfa-login, u2f-login, switch-mfa). Tokens are
 * opened only from the browser they were given to, and spent once, in the transaction that starts the
 * session (services/signInExtras.ts finishSecondFactor).
 */
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { enrolments } from '../../db/mfa.js';
import { rateLimited } from '../../errors.js';
import { loginTokenWithTry, openLoginToken, switchLoginTokenMethod } from '../../services/loginTokens.js';
import { consumeChallengeCode, verifyTotp } from '../../services/mfa.js';
import { keyAssertionForToken } from '../../services/securityKeys.js';
import { countSignIn, startMfaChallenge } from '../../services/signIn.js';
import { finishSecondFactor } from '../../services/signInExtras.js';
import { isUnsupportedSmsRegion } from '../../services/users.js';
import { parseAssertion } from '../../services/webauthn.js';
import { operationRoute, type OperationRequest } from '../operation.js';
import { INVALID_LOGIN_TOKEN, INVALID_MFA_CODE } from './answers.js';

async function mfaLogin(ctx: AppContext, req: OperationRequest<'mfaLogin'>, reply: FastifyReply) {
  const { loginToken, code } = req.body;
  const open = await loginTokenWithTry(ctx, req, loginToken, 'MFA');
  if (!open) return countSignIn(ctx, INVALID_LOGIN_TOKEN);
  const type = open.row.mfa_type;
  let ok = false;
  if (type === 'TOTP') {
    const enrolment = (await enrolments(ctx.data, open.user.id)).find((e) => e.type === 'TOTP');
    ok = enrolment ? await verifyTotp(ctx, enrolment, code) : false;
  } else if (type === 'SMSOTP' || type === 'DUO') {
    ok = (await consumeChallengeCode(ctx, open.row.token_hash, type, code)) !== undefined;
  }
  if (!ok) return countSignIn(ctx, INVALID_MFA_CODE);
  return finishSecondFactor(ctx, req, reply, open);
}

async function u2fLogin(ctx: AppContext, req: OperationRequest<'u2fLogin'>, reply: FastifyReply) {
  const { loginToken, publicKeyCredentialJson } = req.body;
  const open = await loginTokenWithTry(ctx, req, loginToken, 'MFA', (o) => o.row.mfa_type === 'U2F_TOKEN');
  if (!open) return countSignIn(ctx, INVALID_LOGIN_TOKEN);
  const assertion = parseAssertion(publicKeyCredentialJson);
  if (!assertion) return countSignIn(ctx, { resultCode: 'MALFORMED_CREDENTIAL' });
  const outcome = await keyAssertionForToken(ctx, req, open, assertion);
  if (outcome === 'REFUSED') return countSignIn(ctx, INVALID_MFA_CODE);
  // One assertion sent many times at once: only the request that spends the challenge goes on,
  // and only the one that spends the token gets a session.
  if (outcome === 'SPENT') return countSignIn(ctx, INVALID_LOGIN_TOKEN);
  return finishSecondFactor(ctx, req, reply, open);
}

async function switchMfa(ctx: AppContext, req: OperationRequest<'switchMfa'>, reply: FastifyReply) {
  const { loginToken, mfaType } = req.body;
  const open = await openLoginToken(ctx, req, loginToken, 'MFA');
  if (!open) return INVALID_LOGIN_TOKEN;
  const enrolment = (await enrolments(ctx.data, open.user.id)).find((e) => e.type === mfaType);
  if (!enrolment) return { resultCode: 'MFA_NOT_CONFIGURED' };
  if (mfaType === 'SMSOTP' && isUnsupportedSmsRegion(enrolment.phone ?? open.user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
  // Switching to SMS again is how "Resend code" asks for a new code (the previous one is void).
  const { textRefusedFor, textFailure, ...started } = await startMfaChallenge(ctx, open.user, open.row.token_hash, mfaType, { req, reply });
  if (textRefusedFor) return rateLimited(reply, textRefusedFor, 'Too many texts');
  if (textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure };
  await switchLoginTokenMethod(ctx, open, mfaType);
  return { resultCode: 'SUCCESS', ...started };
}

export function signInRoutes(app: FastifyInstance, options: RouteShorthandOptions): void {
  const ctx = app.fd;
  operationRoute(app, 'mfaLogin', (req, reply) => mfaLogin(ctx, req, reply), options);
  operationRoute(app, 'u2fLogin', (req, reply) => u2fLogin(ctx, req, reply), options);
  operationRoute(app, 'switchMfa', (req, reply) => switchMfa(ctx, req, reply), options);
}
