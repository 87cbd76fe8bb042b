/**
 * Activation: user invitations (validate-invitation: NATIVE users go on to set a password with a
 * verification code, SSO users are active at once), division activation keys (activate) and the
 * activation of a self-registered account, where the person proves who they are (activateAccount).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { meetsPasswordPolicy } from '@frontdoor/validators';
import type { Queryable } from '../db/data.js';
import { rateLimited } from '../errors.js';
import { countUnknownCode, unknownCodesBlocked } from '../services/accountFlows.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { sha256 } from '../crypto/primitives.js';
import { revokeAccountTokens } from '../services/revocation.js';
import { afterPassword, botCheckPasses, issueVerificationCode } from '../services/signIn.js';
import { findUserById } from '../services/users.js';
import { authRateLimit, operationRoute } from './operation.js';

interface InvitationRow {
  code_hash: string;
  email: string;
  user_id: number | null;
  auth_type: 'NATIVE' | 'SSO';
  expires_at: number;
  used_at: number | null;
}
interface DivisionRow {
  activation_key: string;
  activated_at: number | null;
  user_id: number | null;
  expires_at: number | null;
}

type KeyLookup = { row: DivisionRow } | { answer: { resultCode: string } } | { blockedFor: number };

const activation: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  /** An activation key by value: unknown ones count against the address (accountFlows.ts). */
  async function findKey(req: FastifyRequest, key: string): Promise<KeyLookup> {
    const blocked = await unknownCodesBlocked(ctx, req);
    if (blocked) return { blockedFor: blocked };
    const row = await ctx.data.get<DivisionRow>('SELECT * FROM division_activations WHERE activation_key = ?', [sha256(key)]);
    if (!row) {
      await countUnknownCode(ctx, req);
      return { answer: { resultCode: 'UNKNOWN_VERIFICATION_CODE' } };
    }
    if (row.activated_at !== null) return { answer: { resultCode: 'ALREADY_ACTIVATED' } };
    if (row.expires_at !== null && row.expires_at <= ctx.now()) return { answer: { resultCode: 'UNKNOWN_VERIFICATION_CODE' } };
    return { row };
  }

  /** Spends the key on t (once, under concurrency) and activates its user; the user's other keys are spent with it. */
  async function spendKey(t: Queryable, row: DivisionRow): Promise<boolean> {
    const at = ctx.now();
    const { changes } = await t.run('UPDATE division_activations SET activated_at = ? WHERE activation_key = ? AND activated_at IS NULL', [
      at,
      row.activation_key,
    ]);
    if (changes === 1 && row.user_id !== null) {
      await t.run("UPDATE users SET state = 'active', updated_at = ? WHERE id = ? AND state = 'inactive'", [at, row.user_id]);
      await t.run('UPDATE division_activations SET activated_at = ? WHERE user_id = ? AND activated_at IS NULL', [at, row.user_id]);
    }
    return changes === 1;
  }

  // Both take a code alone: an address that keeps sending unknown ones is stopped (accountFlows.ts).
  operationRoute(
    app,
    'validateInvitation',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const blocked = await unknownCodesBlocked(ctx, req);
      if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
      const { invitationCode } = req.body;
      // Stored as sha256, like every other code.
      const inv = await ctx.data.get<InvitationRow>('SELECT * FROM invitations WHERE code_hash = ?', [sha256(invitationCode)]);
      const invitee = inv?.user_id != null ? await findUserById(ctx.data, inv.user_id) : undefined;
      if (!inv || !invitee) {
        await countUnknownCode(ctx, req);
        return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      }
      // Used, past its date, or (NATIVE) for an account that no longer waits for its first password: no longer valid (SPEC §8 wording).
      if (inv.used_at !== null || inv.expires_at <= ctx.now() || (inv.auth_type === 'NATIVE' && invitee.state !== 'inactive'))
        return { resultCode: 'INVITATION_CODE_EXPIRED' };
      if (inv.auth_type === 'SSO') {
        const won = await ctx.data.tx(async (t) => {
          if ((await t.run('UPDATE invitations SET used_at = ? WHERE code_hash = ? AND used_at IS NULL', [ctx.now(), inv.code_hash])).changes !== 1)
            return false;
          await t.run("UPDATE users SET state = 'active', updated_at = ? WHERE id = ? AND state = 'inactive'", [ctx.now(), invitee.id]);
          return true;
        });
        return won ? { resultCode: 'SUCCESS', authType: 'SSO' } : { resultCode: 'INVITATION_CODE_EXPIRED' };
      }
      // NATIVE: one live invitation code, for this browser (a new one voids the older ones); the
      // invitation is used up when the password is set (reset-password-commit).
      return { resultCode: 'SUCCESS', authType: 'NATIVE', verificationCode: await issueVerificationCode(ctx, req, reply, invitee.id, 'INVITATION') };
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'activate',
    async (req, reply) => {
      const found = await findKey(req, req.body.activationKey);
      if ('blockedFor' in found) return rateLimited(reply, found.blockedFor, 'Too many wrong codes');
      if ('answer' in found) return found.answer;
      // A self-registered account: whoever registered the address chose its password, so the key alone
      // does not activate it; the person proves who they are (activateAccount).
      if (found.row.user_id !== null) return { resultCode: 'PASSWORD_REQUIRED' };
      return { resultCode: (await ctx.data.tx((t) => spendKey(t, found.row))) ? 'SUCCESS' : 'ALREADY_ACTIVATED' };
    },
    { config: authRateLimit(app) },
  );

  /** undefined: activated; otherwise the answer (or the reply already sent). */
  async function activateWithPassword(
    req: FastifyRequest,
    reply: FastifyReply,
    row: DivisionRow,
    password: string,
    token: string | undefined,
  ): Promise<unknown> {
    const user = row.user_id !== null ? await findUserById(ctx.data, row.user_id) : undefined;
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
    return (await ctx.data.tx((t) => spendKey(t, row))) ? undefined : { resultCode: 'ALREADY_ACTIVATED' };
  }

  async function activateWithNewPassword(row: DivisionRow, newPassword: string): Promise<unknown> {
    if (!meetsPasswordPolicy(newPassword)) return { resultCode: 'INVALID_PASSWORD' };
    const hash = await ctx.passwords.hash(newPassword);
    const won = await ctx.data.tx(async (t) => {
      if (!(await spendKey(t, row))) return false;
      await t.run('UPDATE users SET password_hash = ?, must_set_password = 0, updated_at = ? WHERE id = ?', [hash, ctx.now(), row.user_id]);
      // The password given at registration no longer counts, nor anything issued with it.
      await revokeAccountTokens(ctx, row.user_id!, t);
      return true;
    });
    return won ? undefined : { resultCode: 'ALREADY_ACTIVATED' };
  }

  // A self-registered account's key plus proof of the person: the password chosen at registration,
  // or a new one from the mailbox the key came to (someone else may have registered the address:
  // their password is then replaced). Then the sign-in goes on as after a correct password.
  operationRoute(
    app,
    'activateAccount',
    async (req, reply) => {
      const { activationKey, password, newPassword, recaptchaToken } = req.body;
      const found = await findKey(req, activationKey);
      if ('blockedFor' in found) return rateLimited(reply, found.blockedFor, 'Too many wrong codes');
      if ('answer' in found) return found.answer;
      if (found.row.user_id === null) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      if (newPassword === undefined && password === undefined) return { resultCode: 'AUTHENTICATION_FAILURE' };
      const refused =
        newPassword !== undefined
          ? await activateWithNewPassword(found.row, newPassword)
          : await activateWithPassword(req, reply, found.row, password ?? '', recaptchaToken);
      if (refused !== undefined) return refused;
      const user = await findUserById(ctx.data, found.row.user_id);
      if (!user) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      return afterPassword(ctx, req, reply, user, { staySignedIn: false });
    },
    { config: authRateLimit(app) },
  );
};
export default activation;
