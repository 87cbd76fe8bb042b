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
 * on (a security key also as a second factor: services/webauthn.ts).
 */
import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { decodeClientDataJSON, isoBase64URL } from '@simplewebauthn/server/helpers';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import { isUniqueViolation } from '../db/data.js';
import { bindBrowser, sameBrowser } from './browserBinding.js';
import { spendTokenId } from './counters.js';
import { sha256 } from './crypto.js';
import { findUser } from './loginTokens.js';
import { relyingParty } from './mfa.js';
import { revokeOnMfaChange } from './revocation.js';
import type { SignedPayload } from './signedTokens.js';
import { parseAssertion, parseJson } from './webauthn.js';
import { normalizeEmail, type UserRow } from './users.js';

const MINUTE = 60 * 1000;
export const PASSKEY_CHALLENGE_TTL_MS = 5 * MINUTE;
/** A passkey is added only by a session at most this old (the offer right after signing in). */
export const FRESH_SESSION_MS = 10 * MINUTE;
/** "Not now": the offer comes back after this long. */
export const OFFER_SNOOZE_MS = 7 * 24 * 60 * MINUTE;
const LOGIN = 'passkey-login';
const REGISTER = 'passkey-register';

interface StoredCredential {
  source: 'passkeys' | 'mfa_enrolments';
  id: number;
  user_id: number;
  credential_id: string;
  public_key: string;
  sign_count: number;
  clone_suspected_at: number | null;
}

/** The account's WebAuthn credentials (passkeys and MFA security keys), for allow and exclude lists. */
async function credentialIds(q: Queryable, userId: number): Promise<{ id: string; transports?: string[] }[]> {
  const passkeys = await q.all<{ credential_id: string; transports: string | null }>('SELECT credential_id, transports FROM passkeys WHERE user_id = ?', [
    userId,
  ]);
  const keys = await q.all<{ credential_id: string }>(
    "SELECT credential_id FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id IS NOT NULL",
    [userId],
  );
  return [...passkeys.map((p) => ({ id: p.credential_id, ...transportsOf(p.transports) })), ...keys.map((k) => ({ id: k.credential_id }))];
}

function transportsOf(stored: string | null): { transports?: string[] } {
  try {
    const list: unknown = stored ? JSON.parse(stored) : undefined;
    return Array.isArray(list) && list.every((t) => typeof t === 'string') ? { transports: list } : {};
  } catch {
    return {};
  }
}

async function findCredential(q: Queryable, credentialId: string): Promise<StoredCredential | undefined> {
  const passkey = await q.get<Omit<StoredCredential, 'source'>>(
    'SELECT id, user_id, credential_id, public_key, sign_count, clone_suspected_at FROM passkeys WHERE credential_id = ?',
    [credentialId],
  );
  if (passkey) return { source: 'passkeys', ...passkey };
  const key = await q.get<Omit<StoredCredential, 'source'>>(
    "SELECT id, user_id, credential_id, public_key, sign_count, clone_suspected_at FROM mfa_enrolments WHERE type = 'U2F_TOKEN' AND credential_id = ? AND public_key IS NOT NULL",
    [credentialId],
  );
  return key ? { source: 'mfa_enrolments', ...key } : undefined;
}

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
const userHandleOf = (user: Pick<UserRow, 'uid'>): string => isoBase64URL.fromBuffer(new TextEncoder().encode(user.uid));

/** Stable decoy credential ids for an email without credentials: the answer looks alike for every email. */
function decoyCredentials(ctx: AppContext, email: string): { id: string }[] {
  const id = crypto.createHmac('sha256', ctx.secrets.tokenKey).update(`passkey-decoy\0${email}`).digest('base64url');
  return [{ id }];
}

// ---- sign-in -------------------------------------------------------------------------------------

/** Request options for a passkey sign-in in this browser (email: also that account's non-discoverable credentials). */
export async function passkeyLoginOptions(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  rawEmail?: string,
): Promise<PublicKeyCredentialRequestOptionsJSON> {
  const email = rawEmail ? normalizeEmail(rawEmail) : '';
  let allowCredentials: { id: string; transports?: string[] }[] | undefined;
  if (email) {
    const user = await ctx.data.get<UserRow>('SELECT * FROM users WHERE email = ?', [email]);
    const ids = user && user.sso_state === 'NONE' ? await credentialIds(ctx.data, user.id) : [];
    allowCredentials = ids.length > 0 ? ids : decoyCredentials(ctx, email);
  }
  const challenge = ctx.tokens.sign(LOGIN, PASSKEY_CHALLENGE_TTL_MS, { bh: bindBrowser(ctx, req, reply), ...(email ? { em: sha256(email) } : {}) });
  return generateAuthenticationOptions({
    rpID: relyingParty(ctx, req).rpID,
    challenge,
    userVerification: 'required',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    ...(allowCredentials ? { allowCredentials } : {}),
  });
}

export type PasskeySignIn = { ok: true; user: UserRow } | { ok: false; reason: 'MALFORMED_CREDENTIAL' | 'REFUSED' | 'CLONE_SUSPECTED' };

/**
 * Verifies a passkey assertion and spends its challenge. The account's state (disabled, moved, …) is
 * the caller's to check, as after a password (services/signIn.ts afterPassword).
 */
export async function verifyPasskeySignIn(ctx: AppContext, req: FastifyRequest, credentialJson: string): Promise<PasskeySignIn> {
  const assertion = parseAssertion(credentialJson);
  if (!assertion) return { ok: false, reason: 'MALFORMED_CREDENTIAL' };
  const refused = { ok: false, reason: 'REFUSED' } as const;
  const challenge = challengeToken(ctx, assertion.response.clientDataJSON, LOGIN);
  if (!challenge || !sameBrowser(ctx, req, typeof challenge.payload.bh === 'string' ? challenge.payload.bh : '')) return refused;
  const stored = await findCredential(ctx.data, assertion.id);
  const user = stored ? await findUser(ctx.data, stored.user_id) : undefined;
  if (!stored || !user || user.sso_state !== 'NONE' || stored.clone_suspected_at !== null) return refused;
  // Options asked for an email are good for that account only; a discoverable credential names its account.
  if (typeof challenge.payload.em === 'string' && challenge.payload.em !== sha256(normalizeEmail(user.email))) return refused;
  if (assertion.response.userHandle && assertion.response.userHandle !== userHandleOf(user)) return refused;
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
    return refused;
  }
  if (!result.verified) return refused;
  const { newCounter, credentialBackedUp } = result.authenticationInfo;
  const now = ctx.now();
  const expires = typeof challenge.payload.exp === 'number' ? challenge.payload.exp : now + PASSKEY_CHALLENGE_TTL_MS;
  const table = stored.source;
  // One transaction: the challenge is spent (a replay stops here), then the counter, read again, must move.
  const outcome = await ctx.data.tx(async (t): Promise<'OK' | 'REFUSED' | 'CLONE_SUSPECTED'> => {
    if (!(await spendTokenId(t, challenge.payload.jti, LOGIN, expires))) return 'REFUSED';
    const current = await t.get<{ sign_count: number }>(`SELECT sign_count FROM ${table} WHERE id = ?`, [stored.id]);
    if (!current) return 'REFUSED';
    if ((newCounter > 0 || current.sign_count > 0) && newCounter <= current.sign_count) {
      await t.run(`UPDATE ${table} SET clone_suspected_at = ? WHERE id = ? AND clone_suspected_at IS NULL`, [now, stored.id]);
      return 'CLONE_SUSPECTED';
    }
    if (table === 'passkeys')
      await t.run('UPDATE passkeys SET sign_count = ?, backed_up = ?, last_used_at = ? WHERE id = ?', [newCounter, credentialBackedUp ? 1 : 0, now, stored.id]);
    else await t.run('UPDATE mfa_enrolments SET sign_count = ?, backed_up = ? WHERE id = ?', [newCounter, credentialBackedUp ? 1 : 0, stored.id]);
    return 'OK';
  });
  if (outcome === 'CLONE_SUSPECTED')
    req.log.warn({ credential: stored.id, table, presented: newCounter }, 'passkey counter did not move forward: clone suspected');
  return outcome === 'OK' ? { ok: true, user } : { ok: false, reason: outcome };
}

// ---- the offer and adding a passkey --------------------------------------------------------------

/** Whether a session is fresh enough to add a passkey (it started at most FRESH_SESSION_MS ago). */
export async function sessionIsFresh(ctx: AppContext, sessionId: number): Promise<boolean> {
  const row = await ctx.data.get<{ created_at: number }>('SELECT created_at FROM sessions WHERE id = ?', [sessionId]);
  return row !== undefined && row.created_at > ctx.now() - FRESH_SESSION_MS;
}

export async function hasPasskey(q: Queryable, userId: number): Promise<boolean> {
  return (await q.get('SELECT id FROM passkeys WHERE user_id = ? AND clone_suspected_at IS NULL LIMIT 1', [userId])) !== undefined;
}

/** OFFER: an account without a passkey, not single sign-on, that has not declined, in a fresh session. */
export async function passkeyOfferFor(ctx: AppContext, user: UserRow, sessionId: number): Promise<'OFFER' | 'NO_OFFER'> {
  if (user.sso_state !== 'NONE' || !(await sessionIsFresh(ctx, sessionId)) || (await hasPasskey(ctx.data, user.id))) return 'NO_OFFER';
  const declined = await ctx.data.get<{ ask_again_at: number | null }>('SELECT ask_again_at FROM passkey_offers WHERE user_id = ?', [user.id]);
  if (declined && (declined.ask_again_at === null || declined.ask_again_at > ctx.now())) return 'NO_OFFER';
  return 'OFFER';
}

/** "Not now" (asked again after OFFER_SNOOZE_MS) or "Don't ask again" (forever). */
export async function declinePasskeyOffer(ctx: AppContext, userId: number, forever: boolean): Promise<void> {
  const t = ctx.now();
  await ctx.data.run(
    `INSERT INTO passkey_offers (user_id, declined_at, ask_again_at) VALUES (?, ?, ?)
     ON CONFLICT (user_id) DO UPDATE SET declined_at = excluded.declined_at, ask_again_at = excluded.ask_again_at`,
    [userId, t, forever ? null : t + OFFER_SNOOZE_MS],
  );
}

/** Creation options of a passkey for this session's account (discoverable where possible, user verification required). */
export async function passkeyRegistrationOptions(
  ctx: AppContext,
  req: FastifyRequest,
  reply: FastifyReply,
  user: UserRow,
  sessionId: number,
): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const challenge = ctx.tokens.sign(REGISTER, PASSKEY_CHALLENGE_TTL_MS, { bh: bindBrowser(ctx, req, reply), uid: user.id, sid: sessionId });
  const name = [user.first_name, user.last_name].filter(Boolean).join(' ');
  return generateRegistrationOptions({
    rpName: 'Frontdoor',
    rpID: relyingParty(ctx, req).rpID,
    userName: user.email,
    userDisplayName: name || user.email,
    userID: new TextEncoder().encode(user.uid),
    challenge,
    attestationType: 'none',
    timeout: PASSKEY_CHALLENGE_TTL_MS,
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
    excludeCredentials: await credentialIds(ctx.data, user.id),
  });
}

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

/** Verifies the new credential against this session's challenge and stores it; false when refused. */
export async function addPasskey(ctx: AppContext, req: FastifyRequest, user: UserRow, sessionId: number, credentialJson: string): Promise<boolean> {
  const registration = parseJson(credentialJson);
  if (!isRegistration(registration)) return false;
  const challenge = challengeToken(ctx, registration.response.clientDataJSON, REGISTER);
  const p = challenge?.payload;
  if (!challenge || !p || p.uid !== user.id || p.sid !== sessionId || !sameBrowser(ctx, req, typeof p.bh === 'string' ? p.bh : '')) return false;
  const { origin, rpID } = relyingParty(ctx, req);
  let info;
  try {
    const result = await verifyRegistrationResponse({
      response: registration,
      expectedChallenge: challenge.challenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: true,
    });
    if (!result.verified) return false;
    info = result.registrationInfo;
  } catch (error) {
    req.log.info({ err: error }, 'passkey registration refused');
    return false;
  }
  const rk = registration.clientExtensionResults?.credProps?.rk;
  const transports = info.credential.transports ?? registration.response.transports;
  const now = ctx.now();
  try {
    return await ctx.data.tx(async (t) => {
      if (!(await spendTokenId(t, p.jti, REGISTER, p.exp))) return false;
      if (await findCredential(t, info.credential.id)) return false;
      await t.run(
        `INSERT INTO passkeys (user_id, credential_id, public_key, sign_count, aaguid, device_type, backed_up, transports, discoverable, created_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          user.id,
          info.credential.id,
          isoBase64URL.fromBuffer(info.credential.publicKey),
          info.credential.counter,
          info.aaguid,
          info.credentialDeviceType,
          info.credentialBackedUp ? 1 : 0,
          transports ? JSON.stringify(transports) : null,
          rk === undefined ? null : rk ? 1 : 0,
          now,
        ],
      );
      await revokeOnMfaChange(t, user.id, now);
      return true;
    });
  } catch (error) {
    if (isUniqueViolation(error)) return false;
    throw error;
  }
}
