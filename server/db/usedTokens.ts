/**
 * Spent single-use ids (table used_tokens): the jti of a signed token once consumed (services/signedTokens.ts),
 * a passkey challenge, a solved bot-check challenge. Every instance sees them; a row is kept until the
 * token it stands for has expired.
 */
import type { Queryable } from './data.js';

/** Records the id as spent: true for exactly one of any number of concurrent callers (ON CONFLICT DO NOTHING). */
export async function spendTokenId(q: Queryable, jti: string, purpose: string, expiresAt: number): Promise<boolean> {
  const res = await q.run('INSERT INTO used_tokens (jti, purpose, expires_at) VALUES (?, ?, ?) ON CONFLICT (jti) DO NOTHING', [jti, purpose, expiresAt]);
  return res.changes === 1;
}

/** Forgets the ids whose tokens expired before `now` (they could not be presented again anyway). */
export async function purgeUsedTokens(q: Queryable, now: number): Promise<void> {
  await q.run('DELETE FROM used_tokens WHERE expires_at < ?', [now]);
}
