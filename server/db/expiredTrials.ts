/** Expired-trial session keys (table expired_trial_sessions): issued by a sign-in that answers TRIAL_EXPIRED. */
import type { Queryable } from './data.js';

export interface NewExpiredTrialSession {
  keyHash: string;
  userId: number;
  createdAt: number;
  expiresAt: number;
}

export async function insertExpiredTrialSession(q: Queryable, row: NewExpiredTrialSession): Promise<void> {
  await q.run('INSERT INTO expired_trial_sessions (key_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)', [
    row.keyHash,
    row.userId,
    row.createdAt,
    row.expiresAt,
  ]);
}
