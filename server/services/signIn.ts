/**
 * What happens once a user has proven who they are with a password (or an equivalent step such as a
 * password reset): the state checks in the order of DEMO-TENANT.md, then MFA, then a session.
 * Later flows (mfa-login, reset-password-commit, config-* setup) reuse these functions.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { TextFailure } from '../delivery/sms/twilio.js';
import type { ApiOperations } from '../../src/generated/api-types.js';
import type { AppContext } from '../context.js';
import { randomToken, sha256, sixDigitCode } from '../crypto/primitives.js';
import type { Queryable } from '../db/data.js';
import { insertLoginToken, spendLoginToken, voidOpenLoginTokens } from '../db/loginTokens.js';
import { enrolments, webAuthnCredentials } from '../db/mfa.js';
import { insertChallenge, voidSmsChallenges } from '../db/mfaChallenges.js';
import { insertCode, voidHandedCodes } from '../db/verificationCodes.js';
import { accountRefusal } from './accountState.js';
import { ALL_MFA_TYPES, isUnsupportedSmsRegion, type MfaType } from './users.js';
import type { UserRow } from '../db/accounts.js';
import type { AttemptKind } from './attempts.js';
import type { BotCheckAction } from './botCheck.js';
import { bindBrowser } from './browserBinding.js';
import { relyingParty } from './relyingParty.js';
import type { OpenLoginToken } from './loginTokens.js';
import { sendText, textRefusal } from './texts.js';
import { browserNonce } from '../sso/browser.js';
import { DUO_CALLBACK_PATH } from '../duo/universal.js';
import { sameSitePath } from '../../catalogue/language/return-to.js';

export const LOGIN_TOKEN_TTL_MS = 10 * 60 * 1000;
export const SETUP_TOKEN_TTL_MS = 30 * 60 * 1000;
export const SMS_CODE_TTL_MS = 10 * 60 * 1000;
export const VERIFICATION_CODE_TTL_MS = 24 * 60 * 60 * 1000;

/** The answer of login and of every call that answers "result as login" (schemas/api/common/loginResult.json), its code always set. */
export type LoginResult = ApiOperations['login']['response'] & { resultCode: string };

export interface SignInOptions {
  staySignedIn: boolean;
  returnTo?: string | undefined;
  /** The second factor is satisfied already: a passkey (it verifies its user) or a trusted browser (services/trustedDevices.ts). */
  secondFactorDone?: boolean;
  /** The passkey that signed in (its session remembers it: removing the passkey ends the session). */
  passkeyId?: number | null;
}

/**
 * Counts a sign-in outcome for /metrics (frontdoor_sign_in_total{result}): every answer of login and of
 * the calls that finish one (mfa-login, u2f-login), by its result code ('LOCKED' for a 429 of the
 * account's budget). Returns the answer, so a handler can `return countSignIn(ctx, answer)`.
 */
export function countSignIn<T extends { resultCode?: string } | string>(ctx: Pick<AppContext, 'metrics'>, outcome: T): T {
  ctx.metrics.signIns.inc({ result: typeof outcome === 'string' ? outcome : (outcome.resultCode ?? 'UNKNOWN') });
  return outcome;
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
  const required = await ctx.attempts.botCheckRequired(kind, email, alwaysFails);
  return { required, passed: required && (await ctx.botCheck.verify(token, action, { alwaysFails })) };
}

/**
 * A same-site path ("/x..."), or undefined: the app's rule (catalogue/language/return-to.ts). Non-ASCII
 * characters come back percent-encoded, so the value is safe in a Location header (a raw one made
 * /dev/idp answer 500).
 */
export function safeReturnTo(value: unknown): string | undefined {
  return sameSitePath(value);
}

/**
 * A loginToken (MFA) or userToken (SETUP_MFA), bound to the browser that earned it. One live token per
 * account and purpose: a new sign-in voids the open ones (a token left in an old tab or URL is dead).
 */
async function issueLoginToken(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  purpose: 'MFA' | 'SETUP_MFA',
  mfaType: MfaType | null,
  opts: SignInOptions,
): Promise<{ token: string; hash: string }> {
  const token = randomToken(32);
  const hash = sha256(token);
  const browser = bindBrowser(ctx, req, reply);
  const at = ctx.now();
  await ctx.data.tx(async (t) => {
    await voidOpenLoginTokens(t, user.id, purpose, at);
    await insertLoginToken(t, {
      tokenHash: hash,
      userId: user.id,
      purpose,
      mfaType,
      staySignedIn: opts.staySignedIn,
      returnTo: safeReturnTo(opts.returnTo) ?? null,
      createdAt: at,
      expiresAt: at + (purpose === 'MFA' ? LOGIN_TOKEN_TTL_MS : SETUP_TOKEN_TTL_MS),
      browserHash: browser,
    });
  });
  return { token, hash };
}

/**
 * A code for /resetPassword/{code} handed to this browser in an API answer (SETUP_PASSWORD at sign-in,
 * INVITATION from validate-invitation, RESET_PASSWORD after a texted code), stored hashed and bound to
 * the browser. One live code per purpose and account: the open ones this replaces are void (for
 * RESET_PASSWORD only the browser-bound ones: the emailed link is the mailbox's, accountFlows.ts).
 */
export async function issueVerificationCode(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  userId: number,
  purpose: 'SETUP_PASSWORD' | 'RESET_PASSWORD' | 'INVITATION',
  ttlMs = VERIFICATION_CODE_TTL_MS,
): Promise<string> {
  const code = randomToken(24);
  const browser = bindBrowser(ctx, req, reply);
  const at = ctx.now();
  await ctx.data.tx(async (t) => {
    await voidHandedCodes(t, userId, purpose, purpose !== 'RESET_PASSWORD', at);
    await insertCode(t, { codeHash: sha256(code), userId, purpose, createdAt: at, expiresAt: at + ttlMs, browserHash: browser });
  });
  return code;
}

/**
 * The last step of a login or setup token, in one transaction: the token is spent (exactly once, even
 * for concurrent requests: a conditional update), `effects` run on t (an enrolment with its notice
 * email, a confirmed phone), and the session starts. A crash leaves all of it or none. Undefined when
 * another request spent the token first. `effects` awaits only t's statements (a transaction's rule).
 */
export function finishWithToken(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  open: OpenLoginToken,
  effects?: (t: Queryable) => Promise<void>,
): Promise<LoginResult | undefined> {
  return ctx.data.tx(async (t) => {
    if (!(await spendLoginToken(t, open.row.token_hash, ctx.now()))) return undefined;
    await effects?.(t);
    return completeAuthentication(ctx, req, reply, open.user, open.row.stay_signed_in === 1, t);
  });
}

/**
 * A challenge's outcome: the login-result fields, or how long to wait when the text budget is spent,
 * or what the SMS provider's refusal of the code's text means (textFailure: answer TEXT_NOT_DELIVERED).
 */
export type ChallengeStart = Partial<LoginResult> & { textRefusedFor?: number; textFailure?: TextFailure };

/**
 * Sends a new SMS code under a login or setup token (or, loginTokenHash null, under the user's session):
 * the previous open SMS codes of that owner are void first, so only one code is live at a time.
 */
export async function sendSmsCode(ctx: AppContext, user: UserRow, loginTokenHash: string | null, phone: string): Promise<ChallengeStart> {
  // The code is written in sendText's transaction, with the text that carries it.
  const sent = await sendText(ctx, user, phone, 'mfa-code', async (t) => {
    const at = ctx.now();
    const code = sixDigitCode();
    await voidSmsChallenges(t, user.id, loginTokenHash, at);
    await insertChallenge(t, {
      loginTokenHash,
      userId: user.id,
      type: 'SMSOTP',
      codeHash: sha256(code),
      phone,
      createdAt: at,
      expiresAt: at + SMS_CODE_TTL_MS,
    });
    return { text: `Your verification code is ${code}`, code };
  });
  if (!sent.sent) return { textRefusedFor: sent.retryAfter };
  const refused = await textRefusal(ctx, sent.deliveryId);
  return refused ? { sendSms: false, textFailure: refused } : { sendSms: true };
}

/** What a Duo Universal round trip continues: a prompt's channel (sign-in, Verify MFA) or an enrolment's setup token. */
export const DUO_CHANNEL_STATE = 'channel:';
export const DUO_SETUP_STATE = 'setup:';

/**
 * Open a challenge for an MFA method under a login token, or (loginTokenHash null) under the user's
 * session (Verify MFA modal): SMS sends a code to the outbox, DUO opens a channel
 * (/dev/duo?channel=...), U2F_TOKEN creates WebAuthn request options. TOTP needs nothing.
 * Reused by switch-mfa.
 */
export async function startMfaChallenge(
  ctx: AppContext,
  user: UserRow,
  loginTokenHash: string | null,
  type: MfaType,
  web: { req: FastifyRequest; reply: FastifyReply },
): Promise<ChallengeStart> {
  const at = ctx.now();
  switch (type) {
    case 'SMSOTP': {
      const enrolled = await enrolments(ctx.data, user.id);
      const phone = enrolled.find((e) => e.type === 'SMSOTP')?.phone ?? user.phone;
      if (!phone) return {};
      return sendSmsCode(ctx, user, loginTokenHash, phone);
    }
    case 'DUO': {
      const channel = randomToken(16);
      await insertChallenge(ctx.data, { loginTokenHash, userId: user.id, type, channelId: channel, createdAt: at, expiresAt: at + LOGIN_TOKEN_TTL_MS });
      if (!(await ctx.duo.available(user.organization_id))) return { duoUrl: `/dev/duo?channel=${encodeURIComponent(channel)}`, duoChannelId: channel };
      // Duo Universal Prompt: the popup goes to Duo; its callback (routes/duoCallback.ts) answers on the channel.
      const started = await ctx.duo.start(ctx.data, {
        loginTokenHash: `${DUO_CHANNEL_STATE}${channel}`,
        username: user.email,
        browserNonce: browserNonce(web.req, web.reply),
        now: at,
        organizationId: user.organization_id,
      });
      if (!started.ok) web.req.log.warn(`duo: ${started.detail}`);
      return { duoUrl: started.ok ? started.url : `${DUO_CALLBACK_PATH}?unavailable=1`, duoChannelId: channel };
    }
    case 'U2F_TOKEN': {
      const challenge = randomToken(32);
      await insertChallenge(ctx.data, { loginTokenHash, userId: user.id, type, challenge, createdAt: at, expiresAt: at + LOGIN_TOKEN_TTL_MS });
      const allow = (await webAuthnCredentials(ctx.data, user.id)).map((id) => ({ type: 'public-key', id }));
      // The deployment's RP ID (a branded host's page would otherwise ask for its own), and the hint that a security key answers.
      const publicKey = {
        challenge,
        rpId: relyingParty(ctx, web.req).rpID,
        allowCredentials: allow,
        timeout: 60000,
        userVerification: 'discouraged',
        hints: ['security-key'],
        extensions: {},
      };
      return { credsRequest: JSON.stringify({ publicKey }) };
    }
    default:
      return {};
  }
}

/**
 * Sign-in completed: session row (on q: ctx.data, or the transaction that spends the token) + cookie.
 * The only place a session starts, so the account's state is checked here for every kind of sign-in
 * (services/accountState.ts): a refusal is answered instead, and no session starts.
 */
export async function completeAuthentication(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  staySignedIn: boolean,
  q: Queryable = ctx.data,
  passkeyId: number | null = null,
): Promise<LoginResult> {
  const refused = await accountRefusal(ctx, req, user, q);
  if (refused) return refused;
  await ctx.sessions.start(q, req, reply, user.id, staySignedIn, passkeyId);
  return { resultCode: 'SUCCESS', userType: user.user_type };
}

/** The outcome after a correct password (see DEMO-TENANT.md for the order of the checks). */
export async function afterPassword(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, user: UserRow, opts: SignInOptions): Promise<LoginResult> {
  // The account's state first, before a code is sent or a token issued (completeAuthentication asks again).
  const refused = await accountRefusal(ctx, req, user);
  if (refused) return refused;
  if (user.must_set_password)
    return { resultCode: 'SETUP_PASSWORD', verificationCode: await issueVerificationCode(ctx, req, reply, user.id, 'SETUP_PASSWORD') };
  if (user.sso_state === 'CONFIGURED') return { resultCode: 'SSO_REQUIRED' };
  if (user.sso_state === 'NOT_CONFIGURED') return { resultCode: 'SSO_NOT_CONFIGURED' };

  if (user.mfa_required && !opts.secondFactorDone) {
    const methods = await enrolments(ctx.data, user.id);
    const primary = methods[0];
    if (!primary) {
      const { token } = await issueLoginToken(ctx, req, reply, user, 'SETUP_MFA', null, opts);
      return { resultCode: 'SETUP_MFA', userToken: token, ...(user.phone ? { phoneNumber: user.phone } : {}), available_mfa: [...ALL_MFA_TYPES] };
    }
    if (primary.type === 'SMSOTP' && isUnsupportedSmsRegion(primary.phone ?? user.phone)) return { resultCode: 'INVALID_COUNTRY_REGION' };
    const { token, hash } = await issueLoginToken(ctx, req, reply, user, 'MFA', primary.type, opts);
    // A text refused by its budget still leads to the code screen; 'Resend code' tells when to retry.
    const { textRefusedFor: _refused, ...challenge } = await startMfaChallenge(ctx, user, hash, primary.type, { req, reply });
    return {
      resultCode: 'MFA_REQUIRED',
      mfaType: primary.type,
      available_mfa: [...new Set(methods.map((m) => m.type))],
      loginToken: token,
      ...challenge,
    };
  }
  return completeAuthentication(ctx, req, reply, user, opts.staySignedIn, ctx.data, opts.passkeyId ?? null);
}
