/**
 * Password recovery: init (email: a link to /resetPassword/{code}; text: a 6-digit security code to
 * the phone whose last four digits match), verify (security code -> set-password code) and commit
 * (new password, then the sign-in continues exactly as after a correct password). Also ends
 * SETUP_PASSWORD and NATIVE invitations, whose codes lead to the same set-password step.
 */
import type { FastifyPluginAsync } from 'fastify';
import { rateLimited } from '../errors.js';
import {
  checkCode,
  checkResetTextCode,
  countUnknownCode,
  issueResetTextCode,
  RESET_LINK_TTL_MS,
  storeCode,
  unknownCodesBlocked,
  useCode,
  voidCodes,
} from '../services/accountFlows.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { randomToken } from '../services/crypto.js';
import { notifyPasswordChanged } from '../services/notifications.js';
import { publicBase } from '../services/publicUrl.js';
import { afterPassword, botCheckPasses } from '../services/signIn.js';
import { sendText } from '../services/texts.js';
import { enrolments, findUserByEmail, findUserById, normalizeEmail } from '../services/users.js';
import { meetsPasswordPolicy } from '@frontdoor/validators';
import { authRateLimit, operationRoute } from './operation.js';

const passwordReset: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  // Failed requests (unknown account, wrong digits) are counted apart from sign-in failures (kind
  // 'reset', same rules): the bot check from the third, at most 100 an hour per account.
  operationRoute(
    app,
    'resetPasswordInit',
    async (req, reply) => {
      const body = req.body;
      const email = normalizeEmail(body.email);
      const user = email ? findUserByEmail(ctx.db, email) : undefined;
      const check = await botCheckPasses(ctx, 'reset', 'resetPasswordInit', email, user, body.recaptchaToken);
      const attempt = ctx.attempts.reserve('reset', email, req.ip, check.passed, user?.bot_check_always_fails === 1);
      if (!attempt.ok && attempt.reason === 'LOCKED') return rateLimited(reply, attempt.retryAfter, 'Too many password reset requests for this account');
      if (!attempt.ok) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
      const fail = (resultCode: string) => ({ resultCode, ...(attempt.failures >= BOT_CHECK_AFTER_FAILURES ? { recaptchaRequired: true } : {}) });
      if (!user || user.state === 'disabled' || user.state === 'suspended') return fail('USER_NOT_FOUND');
      if (user.state === 'inactive') {
        ctx.attempts.release('reset', email, req.ip);
        return { resultCode: 'ACCOUNT_NOT_ACTIVATED' };
      }

      if (body.verifyBy === 'EMAIL') {
        // One live reset link: a new request voids the links sent before.
        const code = ctx.db.transaction(() => {
          voidCodes(ctx, user.id, ['RESET_PASSWORD']);
          return storeCode(ctx, user.id, 'RESET_PASSWORD', RESET_LINK_TTL_MS, () => randomToken(24));
        })();
        const link = `${publicBase(ctx, req)}/resetPassword/${encodeURIComponent(code)}`;
        ctx.outbox.send({
          channel: 'email',
          to: user.email,
          subject: 'Password recovery',
          text: `To choose a new password, open this link within 1 hour: ${link}`,
          link,
        });
        ctx.attempts.succeeded('reset', email, req.ip);
        return { resultCode: 'SUCCESS' };
      }
      const phone = user.phone ?? enrolments(ctx.db, user.id).find((e) => e.type === 'SMSOTP')?.phone ?? null;
      const digits = (body.phoneDigits ?? '').trim();
      if (!phone || !/^[0-9]{4}$/.test(digits) || !phone.replace(/\D/g, '').endsWith(digits)) return fail('PHONE_DIGITS_MISMATCH');
      ctx.attempts.succeeded('reset', email, req.ip);
      // One live security code per account: issuing it voids the previous one (only when a text goes out).
      const sent = sendText(ctx, user.id, phone, () => {
        const code = issueResetTextCode(ctx, user.id);
        return { text: `Your password reset security code is ${code}`, code };
      });
      if (!sent.sent) return rateLimited(reply, sent.retryAfter, 'Too many texts');
      return { resultCode: 'SUCCESS' };
    },
    { config: authRateLimit(app) },
  );

  // The texted code is checked against the live code of the account named by email: 5 tries per
  // code, the account's hourly budget across codes, constant-time comparison (accountFlows.ts).
  operationRoute(
    app,
    'resetPasswordVerify',
    async (req, reply) => {
      const { verificationCode, email } = req.body;
      const blocked = unknownCodesBlocked(ctx, req);
      if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
      const check = checkResetTextCode(ctx, findUserByEmail(ctx.db, normalizeEmail(email)), verificationCode.trim());
      if (!check.ok) {
        countUnknownCode(ctx, req);
        return { resultCode: check.resultCode };
      }
      const code = storeCode(ctx, check.userId, 'RESET_PASSWORD', RESET_LINK_TTL_MS, () => randomToken(24));
      return { resultCode: 'SUCCESS', verificationCode: code };
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'resetPasswordCommit',
    async (req, reply) => {
      const { password, verificationCode } = req.body;
      const blocked = unknownCodesBlocked(ctx, req);
      if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
      const check = checkCode(ctx, verificationCode, ['RESET_PASSWORD', 'SETUP_PASSWORD', 'INVITATION']);
      if (!check.ok) {
        countUnknownCode(ctx, req);
        return { resultCode: check.resultCode };
      }
      if (!meetsPasswordPolicy(password)) return { resultCode: 'INVALID_PASSWORD' };
      const hash = await ctx.passwords.hash(password);
      const t = ctx.now();
      const done = ctx.db.transaction(() => {
        if (!useCode(ctx, check.hash)) return false;
        ctx.db.prepare('UPDATE users SET password_hash = ?, must_set_password = 0, updated_at = ? WHERE id = ?').run(hash, t, check.userId);
        // Every other outstanding password code of this user is void once a password is chosen.
        ctx.db
          .prepare(
            "UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL AND purpose IN ('RESET_PASSWORD', 'RESET_SMS', 'SETUP_PASSWORD')",
          )
          .run(t, check.userId);
        if (check.purpose === 'INVITATION') {
          ctx.db.prepare("UPDATE users SET state = 'active' WHERE id = ? AND state = 'inactive'").run(check.userId);
          ctx.db.prepare("UPDATE invitations SET used_at = ? WHERE user_id = ? AND auth_type = 'NATIVE' AND used_at IS NULL").run(t, check.userId);
        }
        // Whoever held a session with the old password is signed out everywhere.
        ctx.sessions.revokeAll(check.userId);
        return true;
      })();
      if (!done) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      const user = findUserById(ctx.db, check.userId);
      if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      // The owner has proven access to their email or phone: the sign-in failures are forgiven.
      ctx.attempts.succeeded('login', user.email, req.ip);
      if (check.purpose === 'RESET_PASSWORD') notifyPasswordChanged(ctx, req, user);
      return afterPassword(ctx, req, reply, user, { staySignedIn: false });
    },
    { config: authRateLimit(app) },
  );
};
export default passwordReset;
