/**
 * What the browser is told so that its password manager stays in step with the server (the WebAuthn
 * Signals API, issue 37; the browser side is widgets/passkey-browser.ts, each call feature-detected):
 * - after a passkey sign-in: the account's accepted credentials and its current name
 *   (signalAllAcceptedCredentials, signalCurrentUserDetails: the product has no place where a name
 *   changes, so the sign-in carries the current one);
 * - after a removal the browser sees (the reset's review list, "This wasn't me", "sign out
 *   everywhere"): the credentials still accepted;
 * - a passkey sign-in with a credential no account holds: that id (signalUnknownCredential).
 * Only the account's own browser gets its list: a session it just earned, the reset's grant for this
 * browser, or the link mailed to its owner.
 */
import type { FastifyRequest } from 'fastify';
import type { ApiOperations } from '../../src/generated/api-types.js';
import type { AppContext } from '../context.js';
import { findUserById, type UserRow } from '../db/accounts.js';
import type { Queryable } from '../db/data.js';
import { acceptedCredentialIds } from '../db/passkeys.js';
import { displayNameOf, userHandleOf } from './passkeys.js';
import { relyingParty } from './relyingParty.js';

export type PasskeySignals = NonNullable<ApiOperations['passkeyLogin']['response']['passkeySignals']>;

/** The credentials of the account that still sign in (its user handle, base64url, as the authenticator keeps it). */
export async function acceptedSignals(ctx: AppContext, req: FastifyRequest, user: UserRow, q: Queryable = ctx.data): Promise<PasskeySignals> {
  return { rpId: relyingParty(ctx, req).rpID, userId: userHandleOf(user), allAcceptedCredentialIds: await acceptedCredentialIds(q, user.id) };
}

/** The same, for an account known by its id (the review's grant, "This wasn't me"); undefined when it is gone. */
export async function acceptedSignalsOf(ctx: AppContext, req: FastifyRequest, userId: number, q: Queryable = ctx.data): Promise<PasskeySignals | undefined> {
  const user = await findUserById(q, userId);
  return user ? acceptedSignals(ctx, req, user, q) : undefined;
}

/** After a passkey sign-in: the accepted credentials and the account's current name. */
export async function signedInSignals(ctx: AppContext, req: FastifyRequest, user: UserRow): Promise<PasskeySignals> {
  return { ...(await acceptedSignals(ctx, req, user)), name: user.email, displayName: displayNameOf(user) };
}

/** A credential no account holds (services/passkeys.ts UNKNOWN_CREDENTIAL): the id the browser sent. */
export const unknownCredentialSignals = (ctx: AppContext, req: FastifyRequest, credentialId: string): PasskeySignals => ({
  rpId: relyingParty(ctx, req).rpID,
  unknownCredentialId: credentialId,
});
