/**
 * Duo delivery through the database, so that every instance sees it: the prompt (/dev/duo, or a real
 * Duo callback) writes its message {mfaCode} or {error:"DENIED"} on the channel's challenge row, and
 * the instance that holds the visitor's event stream polls that row. Open streams are rows of
 * duo_streams, refreshed while open: at most LIMITS.duoStreamsPerChannel per channel and
 * LIMITS.duoStreamsPerAddress per address, counted across instances; a stream ends when its channel
 * does (used, expired or gone).
 */
import type { AppContext } from '../context.js';
import { randomToken } from '../crypto/primitives.js';
import { deleteDuoStream, duoChannelState, findOpenDuoChannel, insertDuoStreamWithinCaps, markDuoStreamSeen, writeDuoMessage } from '../db/duo.js';
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
export async function openDuoChannel(ctx: AppContext, channelId: string | undefined): Promise<DuoChannel | undefined> {
  if (!channelId) return undefined;
  const row = await findOpenDuoChannel(ctx.data, channelId, ctx.now());
  return row ? { id: row.id, userId: row.user_id, expiresAt: row.expires_at } : undefined;
}

/** Writes the prompt's answer for the channel's listeners (a later answer replaces an earlier one). */
export async function publishDuo(ctx: AppContext, channel: DuoChannel, message: DuoMessage, codeHash?: string): Promise<void> {
  await writeDuoMessage(ctx.data, channel.id, JSON.stringify(message), codeHash ?? null);
}

/** The channel's message for a listener, or ended when the channel is used, expired or unknown. */
export async function readDuo(ctx: AppContext, channelId: string): Promise<{ ended: true } | { ended: false; message: string | null }> {
  const row = await duoChannelState(ctx.data, channelId);
  if (!row || row.used_at !== null || row.expires_at <= ctx.now()) return { ended: true };
  return { ended: false, message: row.duo_message };
}

/**
 * Registers a stream within the caps; null when full. One serializable transaction: concurrent
 * openers (on any instance) cannot overrun the caps.
 */
export async function openDuoStream(ctx: AppContext, channel: DuoChannel, channelId: string, address: string): Promise<string | null> {
  const id = randomToken(16);
  const t = ctx.now();
  const fresh = t - DUO_STREAM_STALE_MS;
  const inserted = await ctx.data.tx((q) =>
    insertDuoStreamWithinCaps(q, {
      id,
      channelId,
      address,
      now: t,
      expiresAt: channel.expiresAt,
      freshSince: fresh,
      perChannel: LIMITS.duoStreamsPerChannel,
      perAddress: LIMITS.duoStreamsPerAddress,
    }),
  );
  return inserted ? id : null;
}

export async function touchDuoStream(ctx: AppContext, id: string): Promise<void> {
  await markDuoStreamSeen(ctx.data, id, ctx.now());
}

export async function closeDuoStream(ctx: AppContext, id: string): Promise<void> {
  await deleteDuoStream(ctx.data, id);
}
