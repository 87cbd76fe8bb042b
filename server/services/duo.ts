/**
 * Duo delivery through the database, so that every instance sees it: the prompt (/dev/duo, or a real
 * Duo callback) writes its message {mfaCode} or {error:"DENIED"} on the channel's challenge row, and
 * the instance that holds the visitor's event stream polls that row. Open streams are rows of
 * duo_streams, refreshed while open: at most LIMITS.duoStreamsPerChannel per channel and
 * LIMITS.duoStreamsPerAddress per address, counted across instances; a stream ends when its channel
 * does (used, expired or gone).
 */
import type { AppContext } from '../context.js';
import { randomToken } from './crypto.js';
import { LIMITS } from './limits.js';

export interface DuoMessage {
  mfaCode?: string;
  error?: 'DENIED';
}

/** How often an open stream looks for its message (ms), and refreshes its row. */
export const DUO_POLL_MS = 500;
export const DUO_KEEPALIVE_MS = 15_000;
/** A stream row not refreshed for this long (its instance died) no longer counts against the caps. */
export const DUO_STREAM_STALE_MS = 60_000;

export interface DuoChannel {
  id: number;
  userId: number;
  expiresAt: number;
}

/** The open (unused, unexpired) Duo channel with this id. */
export function openDuoChannel(ctx: AppContext, channelId: string | undefined): DuoChannel | undefined {
  if (!channelId) return undefined;
  const row = ctx.db
    .prepare("SELECT id, user_id, expires_at FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ? AND used_at IS NULL AND expires_at > ?")
    .get(channelId, ctx.now()) as { id: number; user_id: number; expires_at: number } | undefined;
  return row ? { id: row.id, userId: row.user_id, expiresAt: row.expires_at } : undefined;
}

/** Writes the prompt's answer for the channel's listeners (a later answer replaces an earlier one). */
export function publishDuo(ctx: AppContext, channel: DuoChannel, message: DuoMessage, codeHash?: string): void {
  ctx.db
    .prepare('UPDATE mfa_challenges SET duo_message = ?, code_hash = COALESCE(?, code_hash) WHERE id = ? AND used_at IS NULL')
    .run(JSON.stringify(message), codeHash ?? null, channel.id);
}

/** The channel's message for a listener, or ended when the channel is used, expired or unknown. */
export function readDuo(ctx: AppContext, channelId: string): { ended: true } | { ended: false; message: string | null } {
  const row = ctx.db.prepare("SELECT duo_message, used_at, expires_at FROM mfa_challenges WHERE type = 'DUO' AND channel_id = ?").get(channelId) as
    { duo_message: string | null; used_at: number | null; expires_at: number } | undefined;
  if (!row || row.used_at !== null || row.expires_at <= ctx.now()) return { ended: true };
  return { ended: false, message: row.duo_message };
}

/** Registers a stream within the caps (one statement: concurrent openers cannot overrun them); null when full. */
export function openDuoStream(ctx: AppContext, channel: DuoChannel, channelId: string, address: string): string | null {
  const id = randomToken(16);
  const t = ctx.now();
  const fresh = t - DUO_STREAM_STALE_MS;
  const inserted = ctx.db
    .prepare(
      `INSERT INTO duo_streams (id, channel_id, address, opened_at, seen_at, expires_at)
      SELECT ?, ?, ?, ?, ?, ?
      WHERE (SELECT count(*) FROM duo_streams WHERE channel_id = ? AND seen_at > ?) < ?
        AND (SELECT count(*) FROM duo_streams WHERE address = ? AND seen_at > ?) < ?`,
    )
    .run(id, channelId, address, t, t, channel.expiresAt, channelId, fresh, LIMITS.duoStreamsPerChannel, address, fresh, LIMITS.duoStreamsPerAddress);
  return inserted.changes === 1 ? id : null;
}

export function touchDuoStream(ctx: AppContext, id: string): void {
  ctx.db.prepare('UPDATE duo_streams SET seen_at = ? WHERE id = ?').run(ctx.now(), id);
}

export function closeDuoStream(ctx: AppContext, id: string): void {
  ctx.db.prepare('DELETE FROM duo_streams WHERE id = ?').run(id);
}
