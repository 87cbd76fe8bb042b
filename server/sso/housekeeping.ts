/**
 * Expired rows of the SSO tables, for the hourly housekeeping (phase 2 adds the call to
 * services/housekeeping.ts): round-trip states and SAML request IDs, the demo OpenID provider's store.
 * Used assertion IDs live in used_tokens, which housekeeping purges already.
 */
import type { Queryable } from '../db/data.js';
import { purgeProviderRows } from '../db/oidcProviderStore.js';
import { purgeRequests } from '../db/ssoRequests.js';

export async function purgeSso(q: Queryable, now: number): Promise<number> {
  return (await purgeRequests(q, now)) + (await purgeProviderRows(q, now));
}
