/**
 * Password recovery: init (email: a link to /resetPassword/{code}; text: a 6-digit security code to
 * the phone whose last four digits match), verify (security code -> set-password code) and commit
 * (new password, then the sign-in continues exactly as after a correct password). Also ends
 * SETUP_PASSWORD and NATIVE invitations, whose codes lead to the same set-password step.
 */
import type { FastifyPluginAsync } from 'fastify';
import { checkCode, originOf, RESET_LINK_TTL_MS, RESET_SMS_TTL_MS, storeCode, useCode } from '../services/accountFlows.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { randomToken, sixDigitCode } from '../services/crypto.js';
import { afterPassword } from '../services/signIn.js';
import { enrolments, findUserByEmail, findUserById, normalizeEmail } from '../services/users.js';
import { meetsPasswordPolicy } from '@frontdoor/validators';
import { authRateLimit, operationRoute } from './operation.js';

interface InitBody { email: string; phoneDigits?: string; verifyBy: 'EMAIL' | 'TEXT'; recaptchaToken?: string }

/** Reset failures are counted apart from sign-in failures (same threshold for the bot check). */
const resetKey = (email: string) => `reset:${email}`;

const passwordReset: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  operationRoute(app, 'resetPasswordInit', async (req) => {
    const body = req.body as InitBody;
    const email = normalizeEmail(body.email);
    const user = email ? findUserByEmail(ctx.db, email) : undefined;
    const required = ctx.attempts.failures(resetKey(email)) >= BOT_CHECK_AFTER_FAILURES || user?.bot_check_always_fails === 1;
    if (required && !ctx.botCheck.verify(body.recaptchaToken, { alwaysFails: user?.bot_check_always_fails === 1 })) {
      return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
    }
    const fail = (resultCode: string) => {
      const failures = ctx.attempts.fail(resetKey(email));
      return { resultCode, ...(failures >= BOT_CHECK_AFTER_FAILURES ? { recaptchaRequired: true } : {}) };
    };
    if (!user || user.state === 'disabled' || user.state === 'suspended') return fail('USER_NOT_FOUND');
    if (user.state === 'inactive') return { resultCode: 'ACCOUNT_NOT_ACTIVATED' };

    if (body.verifyBy === 'EMAIL') {
      const code = storeCode(ctx, user.id, 'RESET_PASSWORD', RESET_LINK_TTL_MS, () => randomToken(24));
      const link = `${originOf(req)}/resetPassword/${encodeURIComponent(code)}`;
      ctx.outbox.send({ channel: 'email', to: user.email, subject: 'Password recovery', text: `To choose a new password, open this link within 1 hour: ${link}`, link });
      ctx.attempts.reset(resetKey(email));
      return { resultCode: 'SUCCESS' };
    }
    const phone = user.phone ?? enrolments(ctx.db, user.id).find((e) => e.type === 'SMSOTP')?.phone ?? null;
    const digits = (body.phoneDigits ?? '').trim();
    if (!phone || !/^[0-9]{4}$/.test(digits) || !phone.replace(/\D/g, '').endsWith(digits)) return fail('PHONE_DIGITS_MISMATCH');
    const code = storeCode(ctx, user.id, 'RESET_SMS', RESET_SMS_TTL_MS, sixDigitCode);
    ctx.outbox.send({ channel: 'sms', to: phone, text: `Your password reset security code is ${code}`, code });
    ctx.attempts.reset(resetKey(email));
    return { resultCode: 'SUCCESS' };
  }, { config: authRateLimit(app) });

  operationRoute(app, 'resetPasswordVerify', async (req) => {
    const { verificationCode } = req.body as { verificationCode: string };
    const check = checkCode(ctx, verificationCode.trim(), ['RESET_SMS']);
    if (!check.ok) return { resultCode: check.resultCode };
    if (!useCode(ctx, check.hash)) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
    const code = storeCode(ctx, check.userId, 'RESET_PASSWORD', RESET_LINK_TTL_MS, () => randomToken(24));
    return { resultCode: 'SUCCESS', verificationCode: code };
  }, { config: authRateLimit(app) });

  operationRoute(app, 'resetPasswordCommit', async (req, reply) => {
    const { password, verificationCode } = req.body as { password: string; verificationCode: string };
    const check = checkCode(ctx, verificationCode, ['RESET_PASSWORD', 'SETUP_PASSWORD', 'INVITATION']);
    if (!check.ok) return { resultCode: check.resultCode };
    if (!meetsPasswordPolicy(password)) return { resultCode: 'INVALID_PASSWORD' };
    const hash = await ctx.passwords.hash(password);
    const t = ctx.now();
    const done = ctx.db.transaction(() => {
      if (!useCode(ctx, check.hash)) return false;
      ctx.db.prepare('UPDATE users SET password_hash = ?, must_set_password = 0, updated_at = ? WHERE id = ?').run(hash, t, check.userId);
      // Every other outstanding password code of this user is void once a password is chosen.
      ctx.db.prepare("UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL AND purpose IN ('RESET_PASSWORD', 'RESET_SMS', 'SETUP_PASSWORD')")
        .run(t, check.userId);
      if (check.purpose === 'INVITATION') {
        ctx.db.prepare("UPDATE users SET state = 'active' WHERE id = ? AND state = 'inactive'").run(check.userId);
        ctx.db.prepare("UPDATE invitations SET used_at = ? WHERE user_id = ? AND auth_type = 'NATIVE' AND used_at IS NULL").run(t, check.userId);
      }
      return true;
    })();
    if (!done) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
    const user = findUserById(ctx.db, check.userId);
    if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
    ctx.attempts.reset(user.email);
    return afterPassword(ctx, req, reply, user, { staySignedIn: false });
  }, { config: authRateLimit(app) });
};
export default passwordReset;
