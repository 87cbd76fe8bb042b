/**
 * Everything that can act for an account, ended at once: on a password change (reset, set-up
 * password, invitation, activation with a new password), on "sign out everywhere" (with the passkeys:
 * signOutEverywhere) and on "This wasn't me" (services/passkeyNotMe.ts). Open login and
 * set-up tokens, every unused code (reset links, text-reset codes, set-password and invitation codes),
 * open MFA challenges, pending invitations, trusted browsers and sessions. Runs inside the caller's
 * transaction `t` (with the password change it belongs to), or in a transaction of its own. Passkeys
 * stay: after a reset the owner sees them listed and removes those they do not know (passkeyReview.ts).
 */
import type { AppContext } from '../context.js';
import { voidUserInvitations } from '../db/accountFlows.js';
import { lockKey, type Queryable } from '../db/data.js';
import { voidUserLoginTokens } from '../db/loginTokens.js';
import { voidUserChallenges } from '../db/mfaChallenges.js';
import { removePasskeys } from '../db/passkeys.js';
import { revokeTrustedDevices } from '../db/trustedDevices.js';
import { voidUserCodes } from '../db/verificationCodes.js';

export async function revokeAccountTokens(ctx: AppContext, userId: number, t?: Queryable): Promise<void> {
  // Writes of the account's rows alone: under its lock, with the account's other transactions.
  if (!t) return ctx.data.tx((own) => revokeAccountTokens(ctx, userId, own), { lock: lockKey('account', userId) });
  const at = ctx.now();
  await voidUserLoginTokens(t, userId, at);
  await voidUserCodes(t, userId, at);
  await voidUserChallenges(t, userId, at);
  await voidUserInvitations(t, userId, at);
  await revokeTrustedDevices(t, userId, at);
  await ctx.sessions.revokeAll(t, userId);
}

/**
 * "Sign out everywhere" (GET /ws/account/logout?sessions=all): revokeAccountTokens, and every passkey
 * of the account but `keepPasskey`, the one the asking session signed in with (whoever asks holds that
 * one; a passkey planted with a stolen session does not survive its owner's sign-out, issue 35). The
 * sessions those passkeys made end with them. Returns the passkeys removed.
 */
export function signOutEverywhere(ctx: AppContext, userId: number, keepPasskey: number | null): Promise<number> {
  return ctx.data.tx(
    async (t) => {
      await revokeAccountTokens(ctx, userId, t);
      return (await removePasskeys(t, userId, { all: true, keep: keepPasskey })).length;
    },
    { lock: lockKey('account', userId) },
  );
}

/**
 * An MFA change: a method enrolled (MFA setup, a Duo enrolment; a new phone comes with its SMS
 * enrolment), a passkey added, a new set of recovery codes, an administrator's MFA reset. Every trusted
 * browser of the account ("Don't ask again on this device") stood for the second factor as it was: each
 * must pass it again (issue 28). Called where the change is written (services/mfa.ts enrol, passkeys.ts
 * addPasskey, recoveryCodes.ts createRecoveryCodes, admin reset-mfa), inside its transaction t.
 */
export async function revokeOnMfaChange(t: Queryable, userId: number, now: number): Promise<void> {
  await revokeTrustedDevices(t, userId, now);
}

/**
 * A new password: the wrong codes counted against the account (MFA codes at sign-in, text-reset codes)
 * are forgiven with the old password, so a lock-out bought with them ends with the reset.
 */
export async function forgiveCodeFailures(ctx: AppContext, userId: number): Promise<void> {
  await ctx.limits.clear(ctx.data, 'code', String(userId));
  await ctx.limits.clear(ctx.data, 'reset-code', String(userId));
}
