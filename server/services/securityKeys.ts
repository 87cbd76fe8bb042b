/**
 * MFA security keys (WebAuthn with @simplewebauthn/server; the U2F_TOKEN method): registering one at
 * set-up (config-webauthn-init / -complete), and its assertions at sign-in (u2f-login) and in the
 * Verify MFA modal. Each ceremony has its challenge row (db/mfaChallenges.ts), spent once; the keys
 * are enrolments (db/mfa.ts) that also sign in as passkeys (services/passkeys.ts).
 */
import type { FastifyRequest } from 'fastify';
import { generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { ApiOperations } from '../../src/generated/api-types.js';
import type { AppContext } from '../context.js';
import { randomToken, sha256 } from '../crypto/primitives.js';
import type { UserRow } from '../db/accounts.js';
import type { Queryable } from '../db/data.js';
import { recordSecurityKeyUse, securityKey, webAuthnCredentials } from '../db/mfa.js';
import { insertChallenge, openChallenge, openKeyRegistration, openSessionChallenge, spendChallenge } from '../db/mfaChallenges.js';
import { credentialIdInUse } from '../db/passkeys.js';
import type { OpenLoginToken } from './loginTokens.js';
import { enrol } from './mfa.js';
import { relyingParty } from './relyingParty.js';
import { LOGIN_TOKEN_TTL_MS } from './signIn.js';

/** A set-up's registration answer (schemas/api/configWebauthnComplete.json). */
export type KeyRegistration = ApiOperations['configWebauthnComplete']['request']['webAuthnRegistrationResponse'];

/**
 * A WebAuthn assertion of one of the user's security keys against a challenge; the key's counter and
 * backup state are updated on success. A key marked as a suspected clone (by a passkey sign-in with it,
 * services/passkeys.ts) is refused. A counter that does not move is refused here too (the library's
 * check) but marks nothing: the challenge is spent later, so a double-sent assertion of the owner's
 * must not mark their key.
 */
export async function verifyKeyAssertion(
  ctx: AppContext,
  req: FastifyRequest,
  userId: number,
  expectedChallenge: string,
  assertion: AuthenticationResponseJSON,
): Promise<boolean> {
  const key = await securityKey(ctx.data, userId, assertion.id);
  if (!key) return false;
  const { origin, rpID } = relyingParty(ctx, req);
  try {
    const result = await verifyAuthenticationResponse({
      response: assertion,
      expectedChallenge,
      expectedOrigin: origin,
      expectedRPID: rpID,
      requireUserVerification: false,
      credential: { id: key.credential_id, publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')), counter: key.sign_count },
    });
    const { newCounter, credentialBackedUp } = result.authenticationInfo;
    if (result.verified) await recordSecurityKeyUse(ctx.data, key.id, newCounter, credentialBackedUp);
    return result.verified;
  } catch (error) {
    req.log.info({ err: error }, 'webauthn assertion refused');
    return false;
  }
}

/**
 * u2f-login: an assertion against the token's open challenge. 'SPENT': it verified, but another
 * request spent the challenge first (one assertion sent many times at once: only one goes on).
 */
export async function keyAssertionForToken(
  ctx: AppContext,
  req: FastifyRequest,
  open: OpenLoginToken,
  assertion: AuthenticationResponseJSON,
): Promise<'VERIFIED' | 'REFUSED' | 'SPENT'> {
  const challenge = await openChallenge(ctx.data, open.row.token_hash, 'U2F_TOKEN', ctx.now());
  const verified = challenge?.challenge ? await verifyKeyAssertion(ctx, req, open.user.id, challenge.challenge, assertion) : false;
  if (!challenge || !verified) return 'REFUSED';
  return (await spendChallenge(ctx.data, challenge.id, ctx.now())) ? 'VERIFIED' : 'SPENT';
}

/** The Verify MFA modal: an assertion against the session's open challenge, which it spends. */
export async function keyAssertionForSession(ctx: AppContext, req: FastifyRequest, userId: number, assertion: AuthenticationResponseJSON): Promise<boolean> {
  const challenge = await openSessionChallenge(ctx.data, userId, 'U2F_TOKEN', ctx.now());
  const ok = challenge?.challenge ? await verifyKeyAssertion(ctx, req, userId, challenge.challenge, assertion) : false;
  return ok && challenge ? spendChallenge(ctx.data, challenge.id, ctx.now()) : false;
}

/**
 * config-webauthn-init: creation options for a new key of the set-up's account (its keys excluded),
 * and a registration token that finds their challenge again.
 */
export async function keyRegistrationOptions(
  ctx: AppContext,
  req: FastifyRequest,
  open: OpenLoginToken,
): Promise<{ createCredentialsJson: string; registrationToken: string }> {
  const options = await generateRegistrationOptions({
    rpName: 'Frontdoor',
    rpID: relyingParty(ctx, req).rpID,
    userName: open.user.email,
    userID: new TextEncoder().encode(open.user.uid),
    attestationType: 'none',
    // Discoverable where the key can: it then also signs in alone, as a passkey (services/passkeys.ts).
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'discouraged' },
    excludeCredentials: (await webAuthnCredentials(ctx.data, open.user.id)).map((id) => ({ id })),
  });
  const registrationToken = randomToken(32);
  const t = ctx.now();
  await insertChallenge(ctx.data, {
    loginTokenHash: open.row.token_hash,
    userId: open.user.id,
    type: 'U2F_TOKEN',
    codeHash: sha256(registrationToken),
    challenge: options.challenge,
    createdAt: t,
    expiresAt: t + LOGIN_TOKEN_TTL_MS,
  });
  // A second factor on a key of its own: the browser leads with "security key" (WebAuthn hints, issue 37).
  const withHints = { ...options, hints: ['security-key' as const] };
  return { createCredentialsJson: JSON.stringify({ publicKey: withHints }), registrationToken };
}

/** A verified new key: what its authenticator told, to enrol in the transaction that finishes the set-up (enrolKey). */
export interface VerifiedKey {
  credentialId: string;
  publicKey: string;
  signCount: number;
  deviceName: string;
  aaguid: string;
  deviceType: string;
  backedUp: boolean;
}

/**
 * config-webauthn-complete: the new key verified against the set-up's registration challenge, which it
 * spends. 'MALFORMED': no such challenge, no device name, or the registration does not verify
 * (thrown, for the caller to log); 'SPENT': another request spent the challenge first.
 */
export async function verifyKeyRegistration(
  ctx: AppContext,
  req: FastifyRequest,
  open: OpenLoginToken,
  reg: KeyRegistration,
): Promise<VerifiedKey | 'MALFORMED' | 'SPENT'> {
  const deviceName = reg.deviceName.trim();
  const challenge = await openKeyRegistration(ctx.data, open.row.token_hash, sha256(reg.registrationToken), ctx.now());
  const token = reg.tokenResponse;
  // The contract takes any credential type; the library verifies public-key credentials only.
  if (!challenge || deviceName === '' || token.type !== 'public-key') return 'MALFORMED';
  const { origin, rpID } = relyingParty(ctx, req);
  const result = await verifyRegistrationResponse({
    response: {
      id: token.id,
      rawId: token.rawId ?? token.id,
      type: 'public-key',
      response: { attestationObject: token.response.attestationObject, clientDataJSON: token.response.clientDataJSON },
      clientExtensionResults: token.clientExtensionResults ?? {},
    },
    expectedChallenge: challenge.challenge,
    expectedOrigin: origin,
    expectedRPID: rpID,
    requireUserVerification: false,
  });
  if (!result.verified) throw new Error('not verified');
  const { credential, aaguid, credentialDeviceType, credentialBackedUp } = result.registrationInfo;
  if (!(await spendChallenge(ctx.data, challenge.id, ctx.now()))) return 'SPENT';
  return {
    credentialId: credential.id,
    publicKey: Buffer.from(credential.publicKey).toString('base64url'),
    signCount: credential.counter,
    deviceName,
    aaguid,
    deviceType: credentialDeviceType,
    backedUp: credentialBackedUp,
  };
}

/** Enrols the verified key on t. One credential, one account (migration 043): an id held as a passkey or a security key throws. */
export async function enrolKey(ctx: AppContext, t: Queryable, req: FastifyRequest, user: UserRow, key: VerifiedKey): Promise<void> {
  if (await credentialIdInUse(t, key.credentialId)) throw new Error('credential id in use');
  await enrol(ctx, t, req, user, 'U2F_TOKEN', key);
}
