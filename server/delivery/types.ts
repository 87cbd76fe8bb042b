/**
 * The delivery queue's vocabulary: a message to send (email or text), the answer of a provider, and
 * the Sender interface every provider implements (SMTP, Twilio; a test double in tests).
 */
import type { Channel } from '../db/outbox.js';

export type { Channel };

/** A message as the caller hands it to the queue: already rendered in the visitor's language and brand. */
export interface NewDelivery {
  channel: Channel;
  /** What it is (server/delivery/kinds.ts): selects nothing at send time, but shows in logs and /dev/outbox. */
  kind: string;
  to: string;
  language: string;
  subject?: string | undefined;
  text: string;
  html?: string | undefined;
  link?: string | undefined;
  code?: string | undefined;
  /** The recipient's tenant: its own sender (MAIL_FROM, Twilio account) goes first (tenant-settings). */
  organizationId?: number | null | undefined;
  /** The tenant's own From address, when it has one (else the deployment's MAIL_FROM). */
  from?: string | null | undefined;
}

/** A message a worker holds the lease of, ready to hand to its channel's sender. */
export interface ClaimedDelivery {
  id: number;
  channel: Channel;
  kind: string;
  to: string;
  language: string;
  subject: string | null;
  text: string;
  html: string | null;
  createdAt: number;
  /** This claim's attempt number (1 = first try); with the worker id it fences the settle. */
  attempt: number;
  organizationId?: number | null | undefined;
  from?: string | null | undefined;
}

/**
 * A provider's answer. `retryable` separates a temporary refusal (network, 421/4xx SMTP, Twilio 429/5xx)
 * from a permanent one (a malformed address, a blocked number): only the first is tried again.
 */
export type SendResult =
  { ok: true; providerId?: string | undefined; answer: string } | { ok: false; retryable: boolean; error: string; code?: string | undefined };

export interface Sender {
  readonly channel: Channel;
  /** smtp, twilio, … (recorded on the row). */
  readonly name: string;
  /** Never throws: every failure is a SendResult. */
  send(message: ClaimedDelivery): Promise<SendResult>;
  close?(): Promise<void>;
}

/** What /dev/outbox shows (DEMO-TENANT.md): the fields of the old outbox table, newest first. */
export interface OutboxMessage {
  channel: Channel;
  to: string;
  subject?: string;
  text: string;
  link?: string;
  code?: string;
  createdAt: string;
}
