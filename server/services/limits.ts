/**
 * Limits that every instance sees: fixed-window counters in the database (table counters), each updated
 * by one atomic statement, and read-then-write decisions (the sign-in gate) in one serializable
 * transaction. The numbers of the whole server are here, in one place; docs/security.md quotes them and
 * tests/security checks the quote.
 */
import type { Database, Queryable } from '../db/data.js';
import { clearCounter, hitCounter, peekCounter, undoCounter, type Counter } from '../db/counters.js';

export type { Counter };

const MINUTE = 60 * 1000;
const HOUR = 60 * MINUTE;

export const LIMITS = {
  /** Failed sign-ins of one account (any address) from which the bot check is demanded. */
  botCheckAfterFailures: 3,
  /** Failed sign-ins per account per hour (ASVS 2.2.1: at most 100); then 429 until the window ends. */
  accountFailuresPerHour: 100,
  /** Failed sign-ins per (account, address) per hour: one address cannot spend the account's whole budget. */
  accountAddressFailuresPerHour: 20,
  /** Wrong codes per code (text-reset code, login/setup token, SMS challenge, Verify MFA modal session). */
  triesPerCode: 5,
  /** Wrong codes per account per hour, across all its codes (MFA at sign-in and setup, the modal, text reset). */
  codeFailuresPerAccountPerHour: 20,
  /** Unknown codes (activation keys, invitations, reset links) per address per hour. */
  unknownCodesPerAddressPerHour: 50,
  /** Wrong text-reset codes per account per hour: their own budget, apart from the sign-in codes (a reset by email clears it). */
  resetCodeFailuresPerAccountPerHour: 20,
  /** Texts a visitor can make the server send (codes) per phone number and per account per hour: the mail budget's figures. */
  textsPerPhonePerHour: 5,
  textsPerAccountPerHour: 5,
  /** Emails a visitor can make the server send (reset links, activation emails) per recipient address and per account per hour. */
  mailsPerAddressPerHour: 5,
  mailsPerAccountPerHour: 5,
  /** Mail-sending requests (register, request-activation-email, reset-password-init) from one address per hour before the bot check is demanded for them. */
  mailRequestsPerAddressBeforeBotCheck: 5,
  /** Mail-sending requests per minute from all addresses together before the bot check is demanded for everyone (a distributed flood). */
  mailRequestsPerMinuteBeforeBotCheck: 30,
  /** Open Duo event streams per channel and per address (all instances together). */
  duoStreamsPerChannel: 3,
  duoStreamsPerAddress: 20,
  /** Pages (GET or HEAD answered with the app's page) per address per minute, all instances together: generous (an office behind one address). */
  pagesPerAddressPerMinute: 600,
  /** Calls of the sign-in endpoints per address per minute, all routes together. */
  callsPerAddressPerMinute: 300,
  /** Funnel event batches (POST /ws/events) per address per minute; beyond, they are dropped silently (202). */
  eventBatchesPerAddressPerMinute: 120,
  /**
   * Passkey sign-ins counted per credential and per account (well-formed assertions of a credential that
   * exists, counted before they are verified, forgiven by a success); then 429 for that credential or
   * account until the window ends. Never per address: junk from a shared address locks nobody out (issue 35).
   */
  passkeyFailuresPerCredentialPerHour: 10,
  passkeyFailuresPerAccountPerHour: 30,
  window: { failures: HOUR, codes: HOUR, texts: HOUR, mails: HOUR, calls: MINUTE },
} as const;

/**
 * Each call takes the Queryable to run on: `ctx.data` alone, or the `t` of a caller's transaction
 * (docs/data-layer.md, "Stores").
 */
export interface Limits {
  /** Adds one and returns the new count of the window (a new window starts at 1). */
  hit(q: Queryable, scope: string, key: string, windowMs: number): Promise<Counter>;
  /** The count of the current window (0 when none or ended). */
  peek(q: Queryable, scope: string, key: string, windowMs: number): Promise<Counter>;
  /** Takes one back (a reserved attempt that turned out fine). */
  undo(q: Queryable, scope: string, key: string): Promise<void>;
  clear(q: Queryable, scope: string, key: string): Promise<void>;
  /**
   * Read-decide-write in one transaction (no race between instances); fn awaits only t's statements.
   * `lock` (db/data.ts TxOptions): the counters decided on are one account's, and its transactions queue.
   */
  atomically<T>(fn: (t: Queryable) => Promise<T>, lock?: string): Promise<T>;
}

export function createLimits(data: Database, now: () => number): Limits {
  return {
    hit: (q, scope, key, windowMs) => hitCounter(q, scope, key, windowMs, now()),
    peek: (q, scope, key, windowMs) => peekCounter(q, scope, key, windowMs, now()),
    undo: (q, scope, key) => undoCounter(q, scope, key),
    clear: (q, scope, key) => clearCounter(q, scope, key),
    atomically: (fn, lock) => data.tx(fn, lock === undefined ? {} : { lock }),
  };
}

/** Seconds until a window ends, at least 1 (for Retry-After). */
export function retryAfterSeconds(resetAt: number, now: number): number {
  return Math.max(1, Math.ceil((resetAt - now) / 1000));
}
