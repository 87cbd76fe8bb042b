/** Email and text messages "sent" by the server: stored in the outbox table, shown by /dev/outbox. */
import type { Queryable } from '../db/data.js';
import type { OutboxMessage, OutboxRow as Row } from '../delivery/types.js';

export type { OutboxMessage };

export interface Outbox {
  /** Stores the message on q (ctx.data, or the t of the transaction whose effect it reports). */
  send(q: Queryable, msg: Omit<OutboxMessage, 'createdAt'>): Promise<void>;
  /** Newest first; `to` filters by address or phone (case-insensitive). */
  list(to?: string): Promise<OutboxMessage[]>;
}

/**
 * Emails compare case-insensitively; phones by their digits, so `?to=+14155550123` matches even when
 * the unencoded '+' arrives as a space.
 */
export function sameAddress(stored: string, wanted: string): boolean {
  const w = wanted.trim().toLowerCase();
  if (!w) return false;
  if (stored.toLowerCase() === w) return true;
  const digits = (v: string) => v.replace(/[\s+().-]/g, '');
  return /^[\d\s+().-]+$/.test(w) && /^\+?[\d\s().-]+$/.test(stored) && digits(stored) === digits(w);
}

export function createOutbox(data: Queryable, now: () => number): Outbox {
  return {
    async send(q, msg) {
      await q.run('INSERT INTO outbox (channel, to_address, subject, text, link, code, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)', [
        msg.channel,
        msg.to,
        msg.subject ?? null,
        msg.text,
        msg.link ?? null,
        msg.code ?? null,
        now(),
      ]);
    },
    async list(to) {
      const all = await data.all<Row>('SELECT * FROM outbox ORDER BY id DESC');
      const rows = to === undefined ? all : all.filter((r) => sameAddress(r.to_address, to));
      return rows.map((r) => ({
        channel: r.channel,
        to: r.to_address,
        ...(r.subject !== null ? { subject: r.subject } : {}),
        text: r.text,
        ...(r.link !== null ? { link: r.link } : {}),
        ...(r.code !== null ? { code: r.code } : {}),
        createdAt: new Date(r.created_at).toISOString(),
      }));
    },
  };
}
