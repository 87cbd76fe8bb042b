/**
 * Duo through the database, so that every instance sees it: a channel is an mfa_challenges row of
 * type DUO with a channel_id, on which the prompt writes its message; the event streams that wait on
 * a channel are rows of duo_streams, refreshed while open. The rules and caps are services/duo.ts's.
 */
import type { Queryable } from './data.js';

/** The open (unused, unexpired) channel with this id. */
export function findOpenDuoChannel(q: Queryable, channelId: string, now: number): Promise<{ id: number; user_id: number; expires_at: number } | undefined> {
  return q.get<{ id: number; user_id: number; expires_at: number }>(
    "SELECT id, user_id, expires_at FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ? AND used_at IS NULL AND expires_at > ?",
    [channelId, now],
  );
}

/** Writes the prompt's message (JSON) on the channel, with the code it carries (its hash), while the channel is unused. */
export async function writeDuoMessage(q: Queryable, challengeId: number, message: string, codeHash: string | null): Promise<void> {
  await q.run('UPDATE mfa_challenges SET duo_message = ?, code_hash = COALESCE(?, code_hash) WHERE id = ? AND used_at IS NULL', [
    message,
    codeHash,
    challengeId,
  ]);
}

/** The channel's message and state, whatever they are. */
export function duoChannelState(
  q: Queryable,
  channelId: string,
): Promise<{ duo_message: string | null; used_at: number | null; expires_at: number } | undefined> {
  return q.get<{ duo_message: string | null; used_at: number | null; expires_at: number }>(
    "SELECT duo_message, used_at, expires_at FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ?",
    [channelId],
  );
}

export interface NewDuoStream {
  id: string;
  channelId: string;
  address: string;
  now: number;
  expiresAt: number;
  /** Streams not seen since this time no longer count. */
  freshSince: number;
  /** At most this many fresh streams per channel, and per address. */
  perChannel: number;
  perAddress: number;
}

/** Registers a stream unless the channel or the address has its cap of fresh streams; whether it was. */
export async function insertDuoStreamWithinCaps(q: Queryable, s: NewDuoStream): Promise<boolean> {
  const inserted = await q.run(
    `INSERT INTO duo_streams (id, channel_id, address, opened_at, seen_at, expires_at)
    SELECT ?, ?, ?, CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT)
    WHERE (SELECT count(*) FROM duo_streams WHERE channel_id = ? AND seen_at > ?) < ?
      AND (SELECT count(*) FROM duo_streams WHERE address = ? AND seen_at > ?) < ?`,
    [s.id, s.channelId, s.address, s.now, s.now, s.expiresAt, s.channelId, s.freshSince, s.perChannel, s.address, s.freshSince, s.perAddress],
  );
  return inserted.changes === 1;
}

export async function markDuoStreamSeen(q: Queryable, id: string, now: number): Promise<void> {
  await q.run('UPDATE duo_streams SET seen_at = ? WHERE id = ?', [now, id]);
}

export async function deleteDuoStream(q: Queryable, id: string): Promise<void> {
  await q.run('DELETE FROM duo_streams WHERE id = ?', [id]);
}
