/**
 * Setting up a security key under a set-up token: creation options (config-webauthn-init), then the
 * new key verified and enrolled as the token's last step (config-webauthn-complete). The WebAuthn work
 * is services/securityKeys.ts.
 */
import type { FastifyInstance, FastifyReply, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../../context.js';
import { loginTokenWithTry, openLoginToken } from '../../services/loginTokens.js';
import { enrolKey, keyRegistrationOptions, verifyKeyRegistration } from '../../services/securityKeys.js';
import { finishSecondFactor } from '../../services/signInExtras.js';
import { operationRoute, type OperationRequest } from '../operation.js';
import { INVALID_USER_TOKEN } from './answers.js';

const MALFORMED_CREDENTIAL = { resultCode: 'MALFORMED_CREDENTIAL' } as const;

async function configWebauthnInit(ctx: AppContext, req: OperationRequest<'configWebauthnInit'>) {
  const open = await openLoginToken(ctx, req, req.body.userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  return { resultCode: 'SUCCESS', ...(await keyRegistrationOptions(ctx, req, open)) };
}

async function configWebauthnComplete(ctx: AppContext, req: OperationRequest<'configWebauthnComplete'>, reply: FastifyReply) {
  const { setupMfaRequest, webAuthnRegistrationResponse } = req.body;
  const open = await loginTokenWithTry(ctx, req, setupMfaRequest.userToken, 'SETUP_MFA');
  if (!open) return INVALID_USER_TOKEN;
  try {
    const key = await verifyKeyRegistration(ctx, req, open, webAuthnRegistrationResponse);
    if (key === 'MALFORMED') return MALFORMED_CREDENTIAL;
    if (key === 'SPENT') return INVALID_USER_TOKEN;
    // A credential id some account holds already throws in enrolKey: refused like a malformed one.
    return await finishSecondFactor(ctx, req, reply, open, (t) => enrolKey(ctx, t, req, open.user, key));
  } catch (error) {
    req.log.info({ err: error }, 'webauthn registration refused');
    return MALFORMED_CREDENTIAL;
  }
}

export function securityKeyRoutes(app: FastifyInstance, options: RouteShorthandOptions): void {
  const ctx = app.fd;
  operationRoute(app, 'configWebauthnInit', (req) => configWebauthnInit(ctx, req), options);
  operationRoute(app, 'configWebauthnComplete', (req, reply) => configWebauthnComplete(ctx, req, reply), options);
}
