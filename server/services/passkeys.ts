/**
 * Passkeys (WebAuthn with @simplewebauthn/server): sign-in with a passkey alone, and adding one to a
 * signed-in account. docs/mfa.md "Passkeys" describes the flows; the routes are routes/passkeys.ts.
 *
 * Challenges hold no row: the challenge IS a signed token (services/signedTokens.ts) naming its
 * purpose, the browser that asked (sha256 of its HttpOnly nonce cookie), for registration the account
 * and session, for an email-first sign-in the email's hash; valid 5 minutes. The authenticator signs
 * it, so the answer carries it back: the server reads it from clientDataJSON, checks it, and spends
 * its id once (used_tokens) in the transaction that moves the credential's counter. A replayed
 * assertion, one made in another browser, or for another origin or RP ID, is refused.
 *
 * Stored credentials are the account's passkeys (table passkeys) and the security keys of MFA
 * (mfa_enrolments U2F_TOKEN, which MFA setup creates discoverable where the key can): both sign in,
 * always with user verification; both keep the AAGUID and backup state their authenticator told. The
 * counter is checked after the signature: one that does not move forward (but for authenticators that
 * keep it at 0) marks the credential, passkey or security key, as a suspected clone, refused from then
 * on (a security key also as a second factor: services/securityKeys.ts). Their rows are db/passkeys.ts's;
 * a credential id names one credential of one account (migration 043), and every sign-in reads it
 * from the database, so a removed passkey is refused at once on every instance.
 *
 * No options answer names a credential before authentication (issue 35): sign-in options carry no
 * allowCredentials, with or without an email, so they are alike for every email and nobody learns
 * which accounts have passkeys, or their ids (whose refused tries are budgeted: passkeyBudget.ts). A
 * passkey must therefore be discoverable: the offer asks for a resident key.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { AppContext } from '../context.js';
import { isUniqueViolation } from '../db/data.js';
import {
  accountCredentialIds,
  credentialIdInUse,
  credentialSignCount,
  declinedOffer,
  declineOffer,
  findCredential,
  hasPasskey,
  insertPasskey,
  markCloneSuspected,
  recordPasskeyUse,
  type StoredCredential,
} from '../db/passkeys.js';
import { recordSecurityKeyUse } from '../db/mfa.js';
import { sessionCreatedAt } from '../db/sessions.js';
import { bindBrowser, sameBrowser } from './browserBinding.js';
import { spendTokenId } from '../db/usedTokens.js';
import { sha256 } from '../crypto/primitives.js';
import { relyingParty } from './relyingParty.js';
import { passkeyTrySucceeded, reservePasskeyTry } from './passkeyBudget.js';
import { revokeOnMfaChange } from './revocation.js';
import type { SignedPayload } from './signedTokens.js';
import { parseAssertion, parseJson } from './webauthn.js';
import { findUserById, normalizeEmail, type UserRow } from '../db/accounts.js';

const MINUTE = 60 * 1000;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE;
/** A passkey is added only by a session at most this old (the offer right after signing in). */
export const FRESH_SESSION_MS = 10 * MINUTE;
/** "Not now": the offer comes back after this long. */
export const OFFER_SNOOZE_MS = 7 * 24 * 60 * MINUTE;
const LOGIN = 'passkey-login';
const REGISTER = 'passkey-register';

/** The signed token a challenge carries, from the base64url challenge of clientDataJSON. */
function challengeToken(ctx: AppContext, clientDataJSON: string, purpose: string): { payload: SignedPayload; challenge: string } | undefined {
  try {
    const { challenge, type } = decodeClientDataJSON(clientDataJSON);
    if (typeof challenge !== 'string' || challenge.length > 4096 || type !== (purpose === LOGIN ? 'webauthn.get' : 'webauthn.create')) return undefined;
    const payload = ctx.tokens.read(isoBase64URL.toUTF8String(challenge), purpose);
    return payload ? { payload, challenge } : undefined;
  } catch {
    return undefined;
  }
}

/** The user handle of an account's credentials (the same bytes MFA setup registers security keys with). */
export const userHandleOf = (user: Pick<UserRow, 'uid'>): string => isoBase64URL.fromBuffer(new TextEncoder().encode(user.uid));

// ---- sign-in -------------------------------------------------------------------------------------

/**
 * Request options for a passkey sign-in in this browser: no allowCredentials, so the browser offers the
 * discoverable passkeys it has for this site. With an email the challenge names that email's account
 * (only its passkeys are accepted with it); the answer is the same for every email, and nothing is
 * looked up to make it.
 */
export function passkeyLoginOptions(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  rawEmail?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const email = rawEmail ? normalizeEmail(rawEmail) : '';
  const challenge = ctx.tokens.sign(LOGIN, PASSKEY_CHALLENGE_TTL_MS, { bh: bindBrowser(ctx, req, reply), ...(email ? { em: sha256(email) } : {}) });
  return generateAuthenticationOptions({ rpID: relyingParty(ctx, req).rpID, challenge, userVerification: 'required', timeout: PASSKEY_CHALLENGE_TTL_MS });
}

export type PasskeySignIn =
  | { ok: true; user: UserRow; /** The passkey's row (the session keeps it), null for an MFA security key. */ passkeyId: number | null }
  | { ok: false; reason: 'MALFORMED_CREDENTIAL' | 'REFUSED' | 'CLONE_SUSPECTED' }
  /** No account holds this credential (removed, or never ours), answered to the ceremony of this browser only (issue 37). */
  | { ok: false; reason: 'UNKNOWN_CREDENTIAL'; credentialId: string }
  | { ok: false; reason: 'LIMITED'; retryAfter: number };

const REFUSED = { ok: false, reason: 'REFUSED' } as const;

/**
 * Verifies a passkey assertion and spends its challenge. Only a well-formed assertion of a credential
 * that exists is counted, against that credential and its account (passkeyBudget.ts); junk and unknown
 * ids are refused without a count. The account's state (disabled, moved, …) is the caller's to check,
 * as after a password (services/signIn.ts afterPassword).
 */
export async function verifyPasskeySignIn(ctx: AppContext, req: FastifyRequest, credentialJson: string): Promise<PasskeySignIn> {
  const assertion = parseAssertion(credentialJson);
  if (!assertion) return { ok: false, reason: 'MALFORMED_CREDENTIAL' };
  const stored = await findCredential(ctx.data, assertion.id);
  if (!stored) return unknownOrRefused(ctx, req, assertion);
  const budget = await reservePasskeyTry(ctx, stored);
  if (!budget.ok) return { ok: false, reason: 'LIMITED', retryAfter: budget.retryAfter };
  const outcome = await checkAssertion(ctx, req, assertion, stored);
  if (outcome.ok) await passkeyTrySucceeded(ctx, stored);
  return outcome;
}

/**
 * An assertion of a credential no stored row names: UNKNOWN_CREDENTIAL (the browser may then tell its
 * password manager to forget it: signalUnknownCredential) when it answers a live challenge this
 * browser asked for and no row holds the id; anything else is refused like any failure. The answer
 * tells nothing about accounts: the id is the one the browser sent, and a credential id is 16 or more
 * random bytes nobody guesses. An id two rows hold (written before migration 043) is not unknown.
 */
async function unknownOrRefused(ctx: AppContext, req: FastifyRequest, assertion: AuthenticationResponseJSON): Promise<PasskeySignIn> {
  const challenge = challengeToken(ctx, assertion.response.clientDataJSON, LOGIN);
  if (!challenge || !sameBrowser(ctx, req, typeof challenge.payload.bh === 'string' ? challenge.payload.bh : '')) return REFUSED;
  return (await credentialIdInUse(ctx.data, assertion.id)) ? REFUSED : { ok: false, reason: 'UNKNOWN_CREDENTIAL', credentialId: assertion.id };
}

/** The checks of one assertion of a stored credential: challenge, browser, account, signature, then the counter. */
async function checkAssertion(ctx: AppContext, req: FastifyRequest, assertion: AuthenticationResponseJSON, stored: StoredCredential): Promise<PasskeySignIn> {
  const challenge = challengeToken(ctx, assertion.response.clientDataJSON, LOGIN);
  if (!challenge || !sameBrowser(ctx, req, typeof challenge.payload.bh === 'string' ? challenge.payload.bh : '')) return REFUSED;
  const user = await findUserById(ctx.data, stored.user_id);
  if (!user || user.sso_state !== 'NONE' || stored.clone_suspected_at !== null) return REFUSED;
  // Options asked for an email are good for that account only; a discoverable credential names its account.
  if (typeof challenge.payload.em === 'string' && challenge.payload.em !== sha256(normalizeEmail(user.email))) return REFUSED;
  if (assertion.response.userHandle && assertion.response.userHandle !== userHandleOf(user)) return REFUSED;
  const { origin, rpID } = relyingParty(ctx, req);
  let result: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      // Counter 0: the library's own counter check would come before the signature is known good.
      credential: { id: stored.credential_id, publicKey: isoBase64URL.toBuffer(stored.public_key), counter: 0 },
      requireUserVerification: true,
    });
  } catch (error) {
    req.log.info({ err: error }, 'passkey assertion refused');
    return REFUSED;
  }
  if (!result.verified) return REFUSED;
  const outcome = await spendAndCount(ctx, stored, challenge.payload, result.authenticationInfo);
  if (outcome === 'CLONE_SUSPECTED')
    req.log.warn(
      { credential: stored.id, table: stored.source, presented: result.authenticationInfo.newCounter },
      'passkey counter did not move forward: clone suspected',
    );
  return outcome === 'OK' ? { ok: true, user, passkeyId: stored.source === 'passkeys' ? stored.id : null } : { ok: false, reason: outcome };
}

/** One transaction: the challenge is spent (a replay stops here), then the counter, read again, must move. */
function spendAndCount(
  ctx: AppContext,
  stored: StoredCredential,
  challenge: SignedPayload,
  info: { newCounter: number; credentialBackedUp: boolean },
): Promise<'OK' | 'REFUSED' | 'CLONE_SUSPECTED'> {
  const now = ctx.now();
  const expires = typeof challenge.exp === 'number' ? challenge.exp : now + PASSKEY_CHALLENGE_TTL_MS;
  return ctx.data.tx(async (t) => {
    if (!(await spendTokenId(t, challenge.jti, LOGIN, expires))) return 'REFUSED';
    const current = await credentialSignCount(t, stored);
    // Removed since it was looked up (by its owner, on any instance): refused.
    if (current === undefined) return 'REFUSED';
    if ((info.newCounter > 0 || current > 0) && info.newCounter <= current) {
      await markCloneSuspected(t, stored, now);
      return 'CLONE_SUSPECTED';
    }
    if (stored.source === 'passkeys') await recordPasskeyUse(t, stored.id, info.newCounter, info.credentialBackedUp, now);
    else await recordSecurityKeyUse(t, stored.id, info.newCounter, info.credentialBackedUp);
    return 'OK';
  });
}

// ---- the offer and adding a passkey --------------------------------------------------------------

/** Whether a session is fresh enough to add a passkey (it started at most FRESH_SESSION_MS ago). */
export async function sessionIsFresh(ctx: AppContext, sessionId: number): Promise<boolean> {
  const createdAt = await sessionCreatedAt(ctx.data, sessionId);
  return createdAt !== undefined && createdAt > ctx.now() - FRESH_SESSION_MS;
}

/** OFFER: an account without a passkey, not single sign-on, that has not declined, in a fresh session. */
export async function passkeyOfferFor(ctx: AppContext, user: UserRow, sessionId: number): Promise<'OFFER' | 'NO_OFFER'> {
  return (await sessionIsFresh(ctx, sessionId)) ? passkeyOfferAtSignIn(ctx, user) : 'NO_OFFER';
}

/** The offer as a sign-in's answer gives it (its session has just started): services/passkeyStep.ts. */
export async function passkeyOfferAtSignIn(ctx: AppContext, user: UserRow): Promise<'OFFER' | 'NO_OFFER'> {
  if (user.sso_state !== 'NONE' || (await hasPasskey(ctx.data, user.id))) return 'NO_OFFER';
  const declined = await declinedOffer(ctx.data, user.id);
  if (declined && (declined.askAgainAt === null || declined.askAgainAt > ctx.now())) return 'NO_OFFER';
  return 'OFFER';
}

/** "Not now" (asked again after OFFER_SNOOZE_MS) or "Don't ask again" (forever). */
export async function declinePasskeyOffer(ctx: AppContext, userId: number, forever: boolean): Promise<void> {
  const t = ctx.now();
  await declineOffer(ctx.data, userId, t, forever ? null : t + OFFER_SNOOZE_MS);
}

/**
 * Creation options of a passkey for this session's account: discoverable (a resident key: sign-in
 * options name no credential, so one that is not discoverable could never sign in alone), user
 * verification required, the account's credentials excluded, the hint that this device makes it.
 * `conditional`: for the password manager's silent creation right after a password sign-in (issue 37:
 * `mediation: "conditional"`), which neither verifies the user nor asks for presence (Chrome's Google
 * Password Manager sets neither flag): verification is preferred, and the challenge says so, so that
 * addPasskey accepts the missing flags for this ceremony only. The fresh session is the proof.
 */
export async function passkeyRegistrationOptions(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  sessionId: number,
  conditional = false,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const challenge = ctx.tokens.sign(REGISTER, PASSKEY_CHALLENGE_TTL_MS, {
    bh: bindBrowser(ctx, req, reply),
    uid: user.id,
    sid: sessionId,
    ...(conditional ? { cc: 1 } : {}),
  });
  const options = await generateRegistrationOptions({
    rpName: 'Frontdoor',
    rpID: relyingParty(ctx, req).rpID,
    userName: user.email,
    userDisplayName: displayNameOf(user),
    userID: new TextEncoder().encode(user.uid),
    challenge,
    attestationType: 'none',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    authenticatorSelection: { residentKey: 'required', userVerification: conditional ? 'preferred' : 'required' },
    excludeCredentials: await accountCredentialIds(ctx.data, user.id),
  });
  // Set here, not with the library's preferredAuthenticatorType, which would also demand a platform authenticator.
  return { ...options, hints: ['client-device'] };
}

/** The name a passkey shows its owner (the authenticator's display name; signalCurrentUserDetails). */
export const displayNameOf = (user: Pick<UserRow, 'first_name' | 'last_name' | 'email'>): string =>
  [user.first_name, user.last_name].filter(Boolean).join(' ') || user.email;

function isRegistration(value: unknown): value is RegistrationResponseJSON {
  const v = value as Partial<RegistrationResponseJSON> | null | undefined;
  return (
    typeof v?.id === 'string' &&
    v.id.length > 0 &&
    v.id.length <= 1400 &&
    typeof v.rawId === 'string' &&
    v.type === 'public-key' &&
    typeof v.response?.attestationObject === 'string' &&
    typeof v.response.clientDataJSON === 'string'
  );
}

/**
 * Verifies the new credential against this session's challenge and stores it with the browser that
 * added it; its credential id, or undefined when refused (also an id some account holds already).
 */
export async function addPasskey(
  ctx: AppContext,
  req: FastifyRequest,
  user: UserRow,
  sessionId: number,
  credentialJson: string,
): Promise<{ credentialId: string } | undefined> {
  const registration = parseJson(credentialJson);
  if (!isRegistration(registration)) return undefined;
  const challenge = challengeToken(ctx, registration.response.clientDataJSON, REGISTER);
  const p = challenge?.payload;
  if (!challenge || !p || p.uid !== user.id || p.sid !== sessionId || !sameBrowser(ctx, req, typeof p.bh === 'string' ? p.bh : '')) return undefined;
  const { origin, rpID } = relyingParty(ctx, req);
  // The password manager's silent creation sets neither flag; only its own challenge may do without them.
  const conditional = p.cc === 1;
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: registration,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: !conditional,
      requireUserPresence: !conditional,
    });
    if (!result.verified) return undefined;
    info = result.registrationInfo;
  } catch (error) {
    req.log.info({ err: error }, 'passkey registration refused');
    return undefined;
  }
  const rk = registration.clientExtensionResults?.credProps?.rk;
  const credential = info.credential;
  const now = ctx.now();
  try {
    const added = await ctx.data.tx(async (t) => {
      if (!(await spendTokenId(t, p.jti, REGISTER, p.exp))) return false;
      // One credential, one account: an id held as a passkey or a security key (of any account) is refused.
      if (await credentialIdInUse(t, credential.id)) return false;
      await insertPasskey(t, {
        userId: user.id,
        credentialId: credential.id,
        publicKey: isoBase64URL.fromBuffer(credential.publicKey),
        signCount: credential.counter,
        aaguid: info.aaguid,
        deviceType: info.credentialDeviceType,
        backedUp: info.credentialBackedUp,
        transports: credential.transports ?? registration.response.transports,
        discoverable: rk,
        userAgent: String(req.headers['user-agent'] ?? ''),
        createdAt: now,
      });
      await revokeOnMfaChange(t, user.id, now);
      return true;
    });
    return added ? { credentialId: credential.id } : undefined;
  } catch (error) {
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
}
