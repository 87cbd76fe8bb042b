/**
 * Activation: user invitations (validate-invitation: NATIVE users go on to set a password with a
 * verification code, SSO users are active at once), division activation keys (activate) and the
 * activation of a self-registered account, where the person proves who they are (activateAccount).
 * The keys and invitations are services/activation.ts's.
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { meetsPasswordPolicy } from '@frontdoor/validators';
import type { AppContext } from '../context.js';
import { findUserById } from '../db/accounts.js';
import type { ActivationKeyRow } from '../db/accountFlows.js';
import { rateLimited } from '../errors.js';
import { unknownCodesBlocked } from '../services/accountFlows.js';
import { acceptSsoInvitation, activateWithKey, activateWithNewPassword, lookUpActivationKey, lookUpInvitation } from '../services/activation.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { afterPassword, botCheckPasses, issueVerificationCode } from '../services/signIn.js';
import { authRateLimit, operationRoute, type OperationRequest } from './operation.js';

async function validateInvitation(ctx: AppContext, req: OperationRequest<'validateInvitation'>, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store');
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
  const found = await lookUpInvitation(ctx, req, req.body.invitationCode);
  if (!found) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  const { invitation: inv, invitee } = found;
  // Used, past its date, or (NATIVE) for an account that no longer waits for its first password: no longer valid (SPEC §8 wording).
  if (inv.used_at !== null || inv.expires_at <= ctx.now() || (inv.auth_type === 'NATIVE' && invitee.state !== 'inactive'))
    return { resultCode: 'INVITATION_CODE_EXPIRED' };
  if (inv.auth_type === 'SSO')
    return (await acceptSsoInvitation(ctx, inv, invitee.id)) ? { resultCode: 'SUCCESS', authType: 'SSO' } : { resultCode: 'INVITATION_CODE_EXPIRED' };
  // NATIVE: one live invitation code, for this browser (a new one voids the older ones); the
  // invitation is used up when the password is set (reset-password-commit).
  return { resultCode: 'SUCCESS', authType: 'NATIVE', verificationCode: await issueVerificationCode(ctx, req, reply, invitee.id, 'INVITATION') };
}

async function activate(ctx: AppContext, req: OperationRequest<'activate'>, reply: FastifyReply) {
  const found = await lookUpActivationKey(ctx, req, req.body.activationKey);
  if ('blockedFor' in found) return rateLimited(reply, found.blockedFor, 'Too many wrong codes');
  if ('answer' in found) return found.answer;
  // A self-registered account: whoever registered the address chose its password, so the key alone
  // does not activate it; the person proves who they are (activateAccount).
  if (found.row.user_id !== null) return { resultCode: 'PASSWORD_REQUIRED' };
  return { resultCode: (await activateWithKey(ctx, found.row)) ? 'SUCCESS' : 'ALREADY_ACTIVATED' };
}

/** undefined: activated; otherwise the answer (or the reply already sent). */
async function activateWithPassword(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  row: ActivationKeyRow & { user_id: number },
  password: string,
  token: string | undefined,
): Promise<unknown> {
  const user = await findUserById(ctx.data, row.user_id);
  if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  // The sign-in rules: tries counted first, the bot check from the fourth, the account's hourly limits.
  const check = await botCheckPasses(ctx, 'login', 'activateAccount', user.email, user, token);
  const attempt = await ctx.attempts.reserve('login', user.email, req.ip, check.passed, user.bot_check_always_fails === 1);
  if (!attempt.ok && attempt.reason === 'LOCKED') return rateLimited(reply, attempt.retryAfter, 'Too many failed sign-ins for this account');
  if (!attempt.ok) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
  if (!(await ctx.passwords.verify(password, user.password_hash))) {
    return { resultCode: 'AUTHENTICATION_FAILURE', ...(attempt.failures >= BOT_CHECK_AFTER_FAILURES || check.required ? { recaptchaRequired: true } : {}) };
  }
  await ctx.attempts.succeeded('login', user.email, req.ip);
  return (await activateWithKey(ctx, row)) ? undefined : { resultCode: 'ALREADY_ACTIVATED' };
}

/** undefined: activated with the new password; otherwise the answer. */
async function activateWithMailbox(ctx: AppContext, row: ActivationKeyRow & { user_id: number }, newPassword: string): Promise<unknown> {
  if (!meetsPasswordPolicy(newPassword)) return { resultCode: 'INVALID_PASSWORD' };
  const hash = await ctx.passwords.hash(newPassword);
  return (await activateWithNewPassword(ctx, row, hash)) ? undefined : { resultCode: 'ALREADY_ACTIVATED' };
}

// A self-registered account's key plus proof of the person: the password chosen at registration,
// or a new one from the mailbox the key came to (someone else may have registered the address:
// their password is then replaced). Then the sign-in goes on as after a correct password.
async function activateAccount(ctx: AppContext, req: OperationRequest<'activateAccount'>, reply: FastifyReply) {
  const { activationKey, password, newPassword, recaptchaToken } = req.body;
  const found = await lookUpActivationKey(ctx, req, activationKey);
  if ('blockedFor' in found) return rateLimited(reply, found.blockedFor, 'Too many wrong codes');
  if ('answer' in found) return found.answer;
  const userId = found.row.user_id;
  if (userId === null) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  if (newPassword === undefined && password === undefined) return { resultCode: 'AUTHENTICATION_FAILURE' };
  const row = { ...found.row, user_id: userId };
  const refused =
    newPassword !== undefined
      ? await activateWithMailbox(ctx, row, newPassword)
      : await activateWithPassword(ctx, req, reply, row, password ?? '', recaptchaToken);
  if (refused !== undefined) return refused;
  const user = await findUserById(ctx.data, userId);
  if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  return afterPassword(ctx, req, reply, user, { staySignedIn: false });
}

// Each takes a code alone: an address that keeps sending unknown ones is stopped (accountFlows.ts).
const activation: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };
  operationRoute(app, 'validateInvitation', (req, reply) => validateInvitation(ctx, req, reply), limited);
  operationRoute(app, 'activate', (req, reply) => activate(ctx, req, reply), limited);
  operationRoute(app, 'activateAccount', (req, reply) => activateAccount(ctx, req, reply), limited);
};
export default activation;
