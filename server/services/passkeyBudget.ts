/**
 * What refused passkey sign-ins cost (issue 35, finding 3). An assertion cannot be guessed (it is a
 * signature), so the budget is not about guessing: it stops a credential's id being hammered, and it
 * must never let strangers switch passkeys off for everyone behind one address (an office NAT). So only
 * a well-formed assertion of a credential that exists is counted, before it is verified: per credential
 * (LIMITS.passkeyFailuresPerCredentialPerHour) and per account (LIMITS.passkeyFailuresPerAccountPerHour),
 * never per address. Malformed JSON and unknown credential ids cost nothing here (the per-address call
 * limit of the sign-in routes still applies to every request). A successful sign-in clears both counts.
 *
 * Who can spend a credential's budget? Only someone who knows its id: no options answer hands ids out
 * before authentication (services/passkeys.ts passkeyLoginOptions), so that is the authenticator's
 * holder, or someone who saw one of its assertions. The owner then still signs in with the password.
 */
import type { AppContext } from '../context.js';
import type { StoredCredential } from '../db/passkeys.js';
import { LIMITS, retryAfterSeconds } from './limits.js';

const CREDENTIAL = 'passkey-credential';
const ACCOUNT = 'passkey-account';

/** Counter keys: the credential's starts with its account's id, so `admin unlock` finds an account's credentials. */
const credentialKey = (c: Pick<StoredCredential, 'user_id' | 'source' | 'id'>) => `${c.user_id}:${c.source}:${c.id}`;

export type PasskeyTry = { ok: true } | { ok: false; retryAfter: number };

/** Counts one try of this credential (and its account) before it is verified; refused when either budget is spent. */
export async function reservePasskeyTry(ctx: AppContext, credential: StoredCredential): Promise<PasskeyTry> {
  const window = LIMITS.window.failures;
  const perCredential = await ctx.limits.hit(ctx.data, CREDENTIAL, credentialKey(credential), window);
  const perAccount = await ctx.limits.hit(ctx.data, ACCOUNT, String(credential.user_id), window);
  const over = [
    perCredential.count > LIMITS.passkeyFailuresPerCredentialPerHour ? perCredential.resetAt : 0,
    perAccount.count > LIMITS.passkeyFailuresPerAccountPerHour ? perAccount.resetAt : 0,
  ].filter((resetAt) => resetAt > 0);
  return over.length === 0 ? { ok: true } : { ok: false, retryAfter: retryAfterSeconds(Math.max(...over), ctx.now()) };
}

/** The owner signed in with it: the tries counted against the credential and the account are forgiven. */
export async function passkeyTrySucceeded(ctx: AppContext, credential: StoredCredential): Promise<void> {
  await ctx.limits.clear(ctx.data, CREDENTIAL, credentialKey(credential));
  await ctx.limits.clear(ctx.data, ACCOUNT, String(credential.user_id));
}

/** The scopes `admin unlock` clears for an account (prefix: the credential keys of that account). */
export const PASSKEY_BUDGET_SCOPES = { credential: CREDENTIAL, account: ACCOUNT, credentialPrefix: (userId: number) => `${userId}:` } as const;
