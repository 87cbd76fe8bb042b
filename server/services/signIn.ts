/**
 * What happens once a user has proven who they are with a password (or an equivalent step such as a
 * password reset): the state checks in the order of DEMO-TENANT.md, then MFA, then a session.
 * Later flows (mfa-login, reset-password-commit, config-* setup) reuse these functions.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ApiOperations } from '../../src/generated/api-types.js';
import type { AppContext } from '../context.js';
import { randomToken, sha256, sixDigitCode } from './crypto.js';
import { ALL_MFA_TYPES, enrolments, ipAllowed, isUnsupportedSmsRegion, type MfaType, type UserRow } from './users.js';
import type { AttemptKind } from './attempts.js';
import type { BotCheckAction } from './botCheck.js';
import { bindBrowser } from './browserBinding.js';
import { useToken, type OpenToken } from './mfa.js';
import { sendText } from './texts.js';

export const LOGIN_TOKEN_TTL_MS = 10 * 60 * 1000;
export const SETUP_TOKEN_TTL_MS = 30 * 60 * 1000;
export const SMS_CODE_TTL_MS = 10 * 60 * 1000;
export const VERIFICATION_CODE_TTL_MS = 24 * 60 * 60 * 1000;
export const EXPIRED_TRIAL_KEY_TTL_MS = 24 * 60 * 60 * 1000;

/** The answer of login and of every call that answers "result as login" (schemas/api/common/loginResult.json), its code always set. */
export type LoginResult = ApiOperations['login']['response'] & { resultCode: string };

export interface SignInOptions {
  staySignedIn: boolean;
  returnTo?: string | undefined;
  /** The second factor is satisfied already: a passkey (it verifies its user) or a trusted browser (services/trustedDevices.ts). */
  secondFactorDone?: boolean;
}

/**
 * Whether the bot check is demanded for this account now, and whether the request's token passes it
 * (the token is verified, and spent, only when it is demanded).
 */
export async function botCheckPasses(
  ctx: AppContext,
  kind: AttemptKind,
  action: BotCheckAction,
  email: string,
  user: UserRow | undefined,
  token: string | undefined,
): Promise<{ required: boolean; passed: boolean }> {
  const alwaysFails = user?.bot_check_always_fails === 1;
  const required = ctx.attempts.botCheckRequired(kind, email, alwaysFails);
  return { required, passed: required && (await ctx.botCheck.verify(token, action, { alwaysFails })) };
}

/**
 * A same-site path ("/x..."), or undefined. Non-ASCII characters come back percent-encoded, so the
 * value is safe in a Location header (a raw one made /dev/idp answer 500).
 */
export function safeReturnTo(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.length > 2048) return undefined;
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return undefined;
  if (/[\u0000-\u001f\u007f]/.test(value)) return undefined;
  let url: URL;
  try {
    url = new URL(value, 'http://same.invalid');
  } catch {
    return undefined;
  }
  if (url.origin !== 'http://same.invalid') return undefined;
  return url.pathname + url.search + url.hash;
}

/**
 * A loginToken (MFA) or userToken (SETUP_MFA), bound to the browser that earned it. One live token per
 * account and purpose: a new sign-in voids the open ones (a token left in an old tab or URL is dead).
 */
function issueLoginToken(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  purpose: 'MFA' | 'SETUP_MFA',
  mfaType: MfaType | null,
  opts: SignInOptions,
): { token: string; hash: string } {
  const token = randomToken(32);
  const hash = sha256(token);
  const browser = bindBrowser(ctx, req, reply);
  const t = ctx.now();
  ctx.db.transaction(() => {
    ctx.db.prepare('UPDATE login_tokens SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL').run(t, user.id, purpose);
    ctx.db
      .prepare(
        `INSERT INTO login_tokens (token_hash, user_id, purpose, mfa_type, stay_signed_in, return_to, created_at, expires_at, browser_hash)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      )
      .run(
        hash,
        user.id,
        purpose,
        mfaType,
        opts.staySignedIn ? 1 : 0,
        safeReturnTo(opts.returnTo) ?? null,
        t,
        t + (purpose === 'MFA' ? LOGIN_TOKEN_TTL_MS : SETUP_TOKEN_TTL_MS),
        browser,
      );
  })();
  return { token, hash };
}

/**
 * A code for /resetPassword/{code} handed to this browser in an API answer (SETUP_PASSWORD at sign-in,
 * INVITATION from validate-invitation, RESET_PASSWORD after a texted code), stored hashed and bound to
 * the browser. One live code per purpose and account: the open ones this replaces are void (for
 * RESET_PASSWORD only the browser-bound ones: the emailed link is the mailbox's, accountFlows.ts).
 */
export function issueVerificationCode(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  purpose: 'SETUP_PASSWORD' | 'RESET_PASSWORD' | 'INVITATION',
  ttlMs = VERIFICATION_CODE_TTL_MS,
): string {
  const code = randomToken(24);
  const browser = bindBrowser(ctx, req, reply);
  const t = ctx.now();
  ctx.db.transaction(() => {
    ctx.db
      .prepare(`UPDATE verification_codes SET used_at = ? WHERE user_id = ? AND purpose = ? AND used_at IS NULL AND (browser_hash IS NOT NULL OR ? = 1)`)
      .run(t, userId, purpose, purpose === 'RESET_PASSWORD' ? 0 : 1);
    ctx.db
      .prepare('INSERT INTO verification_codes (code_hash, user_id, purpose, created_at, expires_at, browser_hash) VALUES (?, ?, ?, ?, ?, ?)')
      .run(sha256(code), userId, purpose, t, t + ttlMs, browser);
  })();
  return code;
}

/**
 * The last step of a login or setup token, in one transaction: the token is spent (exactly once, even
 * for concurrent requests: a conditional update), `effects` run (an enrolment with its notice email, a
 * confirmed phone), and the session starts. A crash leaves all of it or none. Undefined when another
 * request spent the token first.
 */
export function finishWithToken(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, open: OpenToken, effects?: () => void): LoginResult | undefined {
  return ctx.db.transaction(() => {
    if (!useToken(ctx, open.row)) return undefined;
    effects?.();
    return completeAuthentication(ctx, req, reply, open.user, open.row.stay_signed_in === 1);
  })();
}

/** A challenge's outcome: the login-result fields, or how long to wait when the text budget is spent. */
export type ChallengeStart = Partial<LoginResult> & { textRefusedFor?: number };

/**
 * Sends a new SMS code under a login or setup token (or, loginTokenHash null, under the user's session):
 * the previous open SMS codes of that owner are void first, so only one code is live at a time.
 */
export function sendSmsCode(ctx: AppContext, user: UserRow, loginTokenHash: string | null, phone: string): ChallengeStart {
  const sent = sendText(ctx, user.id, phone, () => {
    const t = ctx.now();
    const code = sixDigitCode();
    ctx.db.transaction(() => {
      ctx.db
        .prepare(
          `UPDATE mfa_challenges SET used_at = ? WHERE type = 'SMSOTP' AND used_at IS NULL AND user_id = ?
        AND (login_token_hash = ? OR (login_token_hash IS NULL AND ? IS NULL))`,
        )
        .run(t, user.id, loginTokenHash, loginTokenHash);
      ctx.db
        .prepare(`INSERT INTO mfa_challenges (login_token_hash, user_id, type, code_hash, created_at, expires_at, phone) VALUES (?, ?, 'SMSOTP', ?, ?, ?, ?)`)
        .run(loginTokenHash, user.id, sha256(code), t, t + SMS_CODE_TTL_MS, phone);
    })();
    return { text: `Your verification code is ${code}`, code };
  });
  return sent.sent ? { sendSms: true } : { textRefusedFor: sent.retryAfter };
}

/**
 * Open a challenge for an MFA method under a login token, or (loginTokenHash null) under the user's
 * session (Verify MFA modal): SMS sends a code to the outbox, DUO opens a channel
 * (/dev/duo?channel=...), U2F_TOKEN creates WebAuthn request options. TOTP needs nothing.
 * Reused by switch-mfa.
 */
export function startMfaChallenge(ctx: AppContext, user: UserRow, loginTokenHash: string | null, type: MfaType): ChallengeStart {
  const t = ctx.now();
  const ins = ctx.db.prepare(`INSERT INTO mfa_challenges (login_token_hash, user_id, type, code_hash, channel_id, challenge, created_at, expires_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
  const enrolled = enrolments(ctx.db, user.id);
  switch (type) {
    case 'SMSOTP': {
      const phone = enrolled.find((e) => e.type === 'SMSOTP')?.phone ?? user.phone;
      if (!phone) return {};
      return sendSmsCode(ctx, user, loginTokenHash, phone);
    }
    case 'DUO': {
      const channel = randomToken(16);
      ins.run(loginTokenHash, user.id, type, null, channel, null, t, t + LOGIN_TOKEN_TTL_MS);
      return { duoUrl: `/dev/duo?channel=${encodeURIComponent(channel)}`, duoChannelId: channel };
    }
    case 'U2F_TOKEN': {
      const challenge = randomToken(32);
      ins.run(loginTokenHash, user.id, type, null, null, challenge, t, t + LOGIN_TOKEN_TTL_MS);
      const allow = (
        ctx.db.prepare("SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL").all(user.id) as {
          credential_id: string;
        }[]
      ).map((r) => ({ type: 'public-key', id: r.credential_id }));
      return {
        credsRequest: JSON.stringify({ publicKey: { challenge, allowCredentials: allow, timeout: 60000, userVerification: 'discouraged', extensions: {} } }),
      };
    }
    default:
      return {};
  }
}

/** Sign-in completed: session row + cookie. */
export function completeAuthentication(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow, staySignedIn: boolean): LoginResult {
  ctx.sessions.start(req, reply, user.id, staySignedIn);
  return { resultCode: 'SUCCESS', userType: user.user_type };
}

/** The outcome after a correct password (see DEMO-TENANT.md for the order of the checks). */
export function afterPassword(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow, opts: SignInOptions): LoginResult {
  if (user.state === 'disabled') return { resultCode: 'APP_USER_NOT_ENABLED' };
  if (user.state === 'suspended') return { resultCode: 'ACCOUNT_SUSPENDED' };
  if (user.state === 'inactive') return { resultCode: 'ACCOUNT_NOT_ACTIVATED' };
  if (!ipAllowed(user.ip_allow_list, req.ip)) return { resultCode: 'IP_ADDRESS_NOT_ALLOWED' };
  if (user.moved_url) return { resultCode: 'ACCOUNT_MOVED', url: user.moved_url.replaceAll('{PORT}', String(ctx.config.publicPort)) };
  if (user.trial_expires_at !== null && user.trial_expires_at <= ctx.now()) {
    const key = randomToken(32);
    ctx.db
      .prepare('INSERT INTO expired_trial_sessions (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)')
      .run(sha256(key), user.id, ctx.now(), ctx.now() + EXPIRED_TRIAL_KEY_TTL_MS);
    return {
      resultCode: 'TRIAL_EXPIRED',
      expiredTrialSessionKey: key,
      ...(user.account_manager_name ? { accountManagerName: user.account_manager_name } : {}),
      ...(user.account_manager_email ? { accountManagerEmail: user.account_manager_email } : {}),
    };
  }
  if (user.must_set_password) return { resultCode: 'SETUP_PASSWORD', verificationCode: issueVerificationCode(ctx, req, reply, user.id, 'SETUP_PASSWORD') };
  if (user.sso_state === 'CONFIGURED') return { resultCode: 'SSO_REQUIRED' };
  if (user.sso_state === 'NOT_CONFIGURED') return { resultCode: 'SSO_NOT_CONFIGURED' };

  if (user.mfa_required && !opts.secondFactorDone) {
    const methods = enrolments(ctx.db, user.id);
    const primary = methods[0];
    if (!primary) {
      const { token } = issueLoginToken(ctx, req, reply, user, 'SETUP_MFA', null, opts);
      return { resultCode: 'SETUP_MFA', userToken: token, ...(user.phone ? { phoneNumber: user.phone } : {}), available_mfa: [...ALL_MFA_TYPES] };
    }
    if (primary.type === 'SMSOTP' && isUnsupportedSmsRegion(primary.phone ?? user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
    const { token, hash } = issueLoginToken(ctx, req, reply, user, 'MFA', primary.type, opts);
    // A text refused by its budget still leads to the code screen; 'Resend code' tells when to retry.
    const { textRefusedFor: _refused, ...challenge } = startMfaChallenge(ctx, user, hash, primary.type);
    return {
      resultCode: 'MFA_REQUIRED',
      mfaType: primary.type,
      available_mfa: [...new Set(methods.map((m) => m.type))],
      loginToken: token,
      ...challenge,
    };
  }
  return completeAuthentication(ctx, req, reply, user, opts.staySignedIn);
}
