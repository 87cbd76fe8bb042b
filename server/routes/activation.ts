/**
 * Activation: user invitations (validate-invitation: NATIVE users go on to set a password with a
 * verification code, SSO users are active at once) and division activation keys (activate).
 */
import type { FastifyPluginAsync } from 'fastify';
import { rateLimited } from '../errors.js';
import { countUnknownCode, unknownCodesBlocked } from '../services/accountFlows.js';
import { issueVerificationCode } from '../services/signIn.js';
import { sha256 } from '../services/crypto.js';
import { authRateLimit, operationRoute } from './operation.js';

interface InvitationRow {
  code: string;
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

const activation: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;

  // Both take a code alone: an address that keeps sending unknown ones is stopped (accountFlows.ts).
  operationRoute(
    app,
    'validateInvitation',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const blocked = unknownCodesBlocked(ctx, req);
      if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
      const { invitationCode } = req.body;
      const inv = ctx.db.prepare('SELECT * FROM invitations WHERE code = ?').get(invitationCode) as InvitationRow | undefined;
      if (!inv || inv.user_id === null) {
        countUnknownCode(ctx, req);
        return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      }
      // Used or past its date: the invitation is no longer valid (SPEC §8 wording).
      if (inv.used_at !== null || inv.expires_at <= ctx.now()) return { resultCode: 'INVITATION_CODE_EXPIRED' };
      if (inv.auth_type === 'SSO') {
        ctx.db.transaction(() => {
          ctx.db.prepare('UPDATE invitations SET used_at = ? WHERE code = ?').run(ctx.now(), inv.code);
          ctx.db.prepare("UPDATE users SET state = 'active', updated_at = ? WHERE id = ? AND state = 'inactive'").run(ctx.now(), inv.user_id);
        })();
        return { resultCode: 'SUCCESS', authType: 'SSO' };
      }
      // NATIVE: the invitation is used up when the password is set (reset-password-commit).
      return { resultCode: 'SUCCESS', authType: 'NATIVE', verificationCode: issueVerificationCode(ctx, inv.user_id, 'INVITATION') };
    },
    { config: authRateLimit(app) },
  );

  operationRoute(
    app,
    'activate',
    async (req, reply) => {
      const blocked = unknownCodesBlocked(ctx, req);
      if (blocked) return rateLimited(reply, blocked, 'Too many wrong codes');
      const { activationKey } = req.body;
      const row = ctx.db.prepare('SELECT * FROM division_activations WHERE activation_key = ?').get(sha256(activationKey)) as DivisionRow | undefined;
      if (!row) {
        countUnknownCode(ctx, req);
        return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      }
      if (row.activated_at !== null) return { resultCode: 'ALREADY_ACTIVATED' };
      if (row.expires_at !== null && row.expires_at <= ctx.now()) return { resultCode: 'UNKNOWN_VERIFICATION_CODE' };
      const t = ctx.now();
      const won = ctx.db.transaction(() => {
        const changed = ctx.db
          .prepare('UPDATE division_activations SET activated_at = ? WHERE activation_key = ? AND activated_at IS NULL')
          .run(t, row.activation_key).changes;
        if (changed === 1 && row.user_id !== null) {
          ctx.db.prepare("UPDATE users SET state = 'active', updated_at = ? WHERE id = ? AND state = 'inactive'").run(t, row.user_id);
          // One activation per user: other keys sent to the same user are spent with it.
          ctx.db.prepare('UPDATE division_activations SET activated_at = ? WHERE user_id = ? AND activated_at IS NULL').run(t, row.user_id);
        }
        return changed === 1;
      })();
      return { resultCode: won ? 'SUCCESS' : 'ALREADY_ACTIVATED' };
    },
    { config: authRateLimit(app) },
  );
};
export default activation;
