/**
 * Password recovery: init (email: a link to /resetPassword/{code}; text: a 6-digit security code to
 * the phone whose last four digits match), verify (security code -> set-password code) and commit
 * (new password, then the sign-in continues exactly as after a correct password; a reset also lets
 * this browser list and remove the account's passkeys: services/passkeyReview.ts). Also ends
 * SETUP_PASSWORD and NATIVE invitations, whose codes lead to the same set-password step.
 */
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import { meetsPasswordPolicy } from '@frontdoor/validators';
import type { AppContext } from '../context.js';
import { findUserByEmail, findUserById, normalizeEmail, type UserRow } from '../db/accounts.js';
import { enrolments } from '../db/mfa.js';
import { rateLimited } from '../errors.js';
import {
  checkCode,
  checkResetTextCode,
  countUnknownCode,
  issueResetTextCode,
  RESET_LINK_TTL_MS,
  sendResetLink,
  setPasswordWithCode,
  unknownCodesBlocked,
} from '../services/accountFlows.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { bindBrowser } from '../services/browserBinding.js';
import { checkSettled, countMailRequest, mailRequestsUnderLoad } from '../services/mail.js';
import { notifyPasswordChanged } from '../services/notifications.js';
import { grantPasskeyReview } from '../services/passkeyReview.js';
import { forgiveCodeFailures } from '../services/revocation.js';
import { afterPassword, issueVerificationCode } from '../services/signIn.js';
import { sendText, textRefusal } from '../services/texts.js';
import { accountOf } from '../services/users.js';
import { withPasskeyStep } from '../services/passkeyStep.js';
import { authRateLimit, operationRoute, type OperationRequest } from './operation.js';

type InitRequest = OperationRequest<'resetPasswordInit'>;
/** A refused request's answer, with recaptchaRequired once the bot check is due. */
type Fail = (resultCode: string) => object;

// Failed requests (unknown account, wrong digits) are counted apart from sign-in failures (kind
// 'reset', same rules): the bot check from the third, at most 100 an hour per account. Under load
// (services/mail.ts) the bot check is demanded from every request. Emails and texts have budgets.
async function resetPasswordInit(ctx: AppContext, req: InitRequest, reply: FastifyReply) {
  const body = req.body;
  const { email, user } = await accountOf(ctx.data, body.email);
  const alwaysFails = user?.bot_check_always_fails === 1;
  const loaded = await mailRequestsUnderLoad(ctx, req);
  const required = loaded || (await ctx.attempts.botCheckRequired('reset', email, alwaysFails));
  const passed = required && (await ctx.botCheck.verify(body.recaptchaToken, 'resetPasswordInit', { alwaysFails }));
  if (loaded && !passed) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
  const attempt = await ctx.attempts.reserve('reset', email, req.ip, passed, alwaysFails);
  if (!attempt.ok && attempt.reason === 'LOCKED') return rateLimited(reply, attempt.retryAfter, 'Too many password reset requests for this account');
  if (!attempt.ok) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
  await countMailRequest(ctx, req);
  const fail: Fail = (resultCode) => ({ resultCode, ...(attempt.failures >= BOT_CHECK_AFTER_FAILURES ? { recaptchaRequired: true } : {}) });
  if (!user || user.state === 'disabled' || user.state === 'suspended') return fail('USER_NOT_FOUND');
  if (user.state === 'inactive') {
    await ctx.attempts.release('reset', email, req.ip);
    return { resultCode: 'ACCOUNT_NOT_ACTIVATED' };
  }
  if (body.verifyBy === 'EMAIL') {
    await ctx.attempts.succeeded('reset', email, req.ip);
    // The live link is sent again (a request never voids the link the owner already has), within the mail budget.
    const sent = await sendResetLink(ctx, req, user);
    if (!sent.sent) return rateLimited(reply, sent.retryAfter, 'Too many emails');
    return checkSettled(body.recaptchaToken, { resultCode: 'SUCCESS' });
  }
  return sendResetText(ctx, req, reply, { email, user }, fail);
}

/** By text: a 6-digit security code to the phone on file, when the visitor typed its last four digits. */
async function sendResetText(ctx: AppContext, req: InitRequest, reply: FastifyReply, account: { email: string; user: UserRow }, fail: Fail) {
  const { email, user } = account;
  const phone = user.phone ?? (await enrolments(ctx.data, user.id)).find((e) => e.type === 'SMSOTP')?.phone ?? null;
  const digits = (req.body.phoneDigits ?? '').trim();
  if (!phone || !/^[0-9]{4}$/.test(digits) || !phone.replace(/\D/g, '').endsWith(digits)) return fail('PHONE_DIGITS_MISMATCH');
  await ctx.attempts.succeeded('reset', email, req.ip);
  // One live security code per account, for the browser that asked: issuing it voids the previous one (only when a text goes out).
  const browser = bindBrowser(ctx, req, reply);
  const sent = await sendText(ctx, user, phone, 'reset-code', async (t) => {
    const code = await issueResetTextCode(ctx, t, user.id, browser);
    return { text: `Your password reset security code is ${code}`, code };
  });
  if (!sent.sent) return rateLimited(reply, sent.retryAfter, 'Too many texts');
  // The provider refused the text at once (an invalid number, a number that refuses texts): say so.
  const textFailure = await textRefusal(ctx, sent.deliveryId);
  if (textFailure) return { resultCode: 'TEXT_NOT_DELIVERED', textFailure };
  return checkSettled(req.body.recaptchaToken, { resultCode: 'SUCCESS' });
}

// The texted code is checked against the live code of the account named by email, from the browser
// that asked for it: 5 tries per code, the account's hourly budget of text-reset codes (its own:
// it never locks sign-in), constant-time comparison (accountFlows.ts).
async function resetPasswordVerify(ctx: AppContext, req: OperationRequest<'resetPasswordVerify'>, reply: FastifyReply) {
  const { verificationCode, email } = req.body;
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
  const check = await checkResetTextCode(ctx, req, await findUserByEmail(ctx.data, normalizeEmail(email)), verificationCode.trim());
  if (!check.ok) {
    await countUnknownCode(ctx, req);
    return { resultCode: check.resultCode };
  }
  return { resultCode: 'SUCCESS', verificationCode: await issueVerificationCode(ctx, req, reply, check.userId, 'RESET_PASSWORD', RESET_LINK_TTL_MS) };
}

async function resetPasswordCommit(ctx: AppContext, req: OperationRequest<'resetPasswordCommit'>, reply: FastifyReply) {
  const { password, verificationCode } = req.body;
  const blocked = await unknownCodesBlocked(ctx, req);
  if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
  const check = await checkCode(ctx, req, verificationCode, ['RESET_PASSWORD', 'SETUP_PASSWORD', 'INVITATION']);
  if (!check.ok) {
    await countUnknownCode(ctx, req);
    return { resultCode: check.resultCode };
  }
  if (!meetsPasswordPolicy(password)) return { resultCode: 'INVALID_PASSWORD' };
  if (!(await setPasswordWithCode(ctx, check, await ctx.passwords.hash(password)))) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  const user = await findUserById(ctx.data, check.userId);
  if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
  // The owner has proven access to their email or phone: sign-in failures and wrong codes are forgiven.
  await ctx.attempts.succeeded('login', user.email, req.ip);
  await forgiveCodeFailures(ctx, user.id);
  if (check.purpose === 'RESET_PASSWORD') {
    await notifyPasswordChanged(ctx, ctx.data, req, user);
    // A passkey signs in alone: taking the account back shows the owner every passkey, each removable (issue 35).
    await grantPasskeyReview(ctx, req, reply, user.id);
  }
  return withPasskeyStep(ctx, req, reply, user, await afterPassword(ctx, req, reply, user, { staySignedIn: false }));
}

const passwordReset: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };
  operationRoute(app, 'resetPasswordInit', (req, reply) => resetPasswordInit(ctx, req, reply), limited);
  operationRoute(app, 'resetPasswordVerify', (req, reply) => resetPasswordVerify(ctx, req, reply), limited);
  operationRoute(app, 'resetPasswordCommit', (req, reply) => resetPasswordCommit(ctx, req, reply), limited);
};
export default passwordReset;
