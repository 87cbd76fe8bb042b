/**
 * WebAuthn pieces that the MFA security key (routes/mfa.ts) and passkey sign-in (services/passkeys.ts)
 * share: reading a browser's credential JSON, and verifying an assertion of an enrolled security key.
 */
import type { FastifyRequest } from 'fastify';
import { verifyAuthenticationResponse, type AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { AppContext } from '../context.js';
import { relyingParty } from './relyingParty.js';

/** The parsed text, or undefined when it is not JSON (the caller answers MALFORMED_CREDENTIAL). */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isAssertion(value: unknown): value is AuthenticationResponseJSON {
  const v = value as Partial<AuthenticationResponseJSON> | null | undefined;
  const r = v?.response as Partial<AuthenticationResponseJSON['response']> | undefined;
  return (
    typeof v?.id === 'string' &&
    v.id.length > 0 &&
    v.id.length <= 1400 &&
    v.type === 'public-key' &&
    typeof r?.authenticatorData === 'string' &&
    typeof r.clientDataJSON === 'string' &&
    typeof r.signature === 'string' &&
    (r.userHandle === undefined || r.userHandle === null || typeof r.userHandle === 'string')
  );
}

/** A credential JSON that has an assertion's shape (id, type and the three signed strings), or undefined. */
export function parseAssertion(text: string): AuthenticationResponseJSON | undefined {
  const value = parseJson(text);
  return isAssertion(value) ? value : undefined;
}

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
  const key = await ctx.data.get<{ id: number; credential_id: string; public_key: string; sign_count: number }>(
    "SELECT id, credential_id, public_key, sign_count FROM mfa_enrolments WHERE user_id = ? AND type = 'U2F_TOKEN' AND credential_id = ? AND clone_suspected_at IS NULL",
    [userId, assertion.id],
  );
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
    if (result.verified)
      await ctx.data.run('UPDATE mfa_enrolments SET sign_count = ?, backed_up = ? WHERE id = ?', [newCounter, credentialBackedUp ? 1 : 0, key.id]);
    return result.verified;
  } catch (error) {
    req.log.info({ err: error }, 'webauthn assertion refused');
    return false;
  }
}
