/**
 * Everything that can act for an account, ended at once: on a password change (reset, set-up
 * password, invitation, activation with a new password) and on "sign out everywhere". Open login and
 * set-up tokens, every unused code (reset links, text-reset codes, set-password and invitation codes),
 * open MFA challenges, pending invitations, trusted browsers and sessions. Run inside the caller's transaction.
 */
import type { AppContext } from '../context.js';
import { REVOKE_TRUSTED_DEVICES } from './trustedDevices.js';

export function revokeAccountTokens(ctx: AppContext, userId: number): void {
  const t = ctx.now();
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE login_tokens SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(t, userId);
    ctx.db.prepare('UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(t, userId);
    ctx.db.prepare('UPDATE mfa_challenges SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(t, userId);
    ctx.db.prepare('UPDATE invitations SET used_at = ? WHERE user_id = ? AND used_at IS NULL').run(t, userId);
    ctx.db.prepare(REVOKE_TRUSTED_DEVICES).run(t, userId);
    ctx.sessions.revokeAll(userId);
  })();
}

/**
 * A new password: the wrong codes counted against the account (MFA codes at sign-in, text-reset codes)
 * are forgiven with the old password, so a lock-out bought with them ends with the reset.
 */
export function forgiveCodeFailures(ctx: AppContext, userId: number): void {
  ctx.limits.clear('code', String(userId));
  ctx.limits.clear('reset-code', String(userId));
}
