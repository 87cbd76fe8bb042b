/**
 * The delivery service as the server uses it (phase 2 wires it into app.ts: docs/delivery-and-sso.md):
 * senders from the settings (SMTP, Twilio), the queue policy (demo mode keeps every message for
 * /dev/outbox; a channel without a provider is 'held', shown there but never sent), one worker per
 * instance, and the calls the services make: `email` / `text` render and queue a message inside the
 * caller's transaction; `kick` after the commit asks the worker to send at once.
 */
import type { Database, Queryable } from '../db/data.js';
import { TWILIO_API_BASE, type DeliverySettings, type TwilioSettings } from './config.js';
import { tenantOwnSettings } from '../db/tenants.js';
import { composeEmail, composeText, type Brand, type EmailInput, type TextInput } from './email/compose.js';
import { smtpSender } from './email/smtp.js';
import { purgeDeliveries } from '../db/deliveries.js';
import { DEFAULT_POLICY, enqueue, listOutbox, type QueuePolicy } from './queue.js';
import { twilioSender } from './sms/twilio.js';
import type { Channel, ClaimedDelivery, OutboxMessage, Sender } from './types.js';
import { createDeliveryWorker, type DeliveryWorker, type WorkerOptions } from './worker.js';

interface Addressed {
  to: string;
  language: string | null | undefined;
  brand: Brand;
}

export interface Delivery {
  readonly policy: QueuePolicy;
  /** A tenant's own Twilio account sends its texts (outside demo mode, with the sealer given). */
  readonly tenantTransports: boolean;
  readonly worker: DeliveryWorker;
  /** Renders and queues an email in `t` (the caller's transaction); returns its delivery id. */
  email(t: Queryable, input: EmailInput & Addressed): Promise<number>;
  /** Renders and queues a text message in `t`; returns its delivery id. */
  text(t: Queryable, input: TextInput & Addressed): Promise<number>;
  /** After the caller's transaction committed: send now rather than at the next poll. */
  kick(): void;
  /** /dev/outbox. */
  outbox(q: Queryable, to?: string): Promise<OutboxMessage[]>;
  /** Housekeeping: rows past their retention. */
  purge(q: Queryable): Promise<number>;
  start(): void;
  stop(): Promise<void>;
}

export interface DeliveryOptions {
  data: Database;
  settings: DeliverySettings;
  /** Demo mode: keep the body, link and code of sent messages for /dev/outbox. */
  demo: boolean;
  now?: () => number;
  log?: WorkerOptions['log'];
  /** Tests: senders instead of those the settings make. */
  senders?: Partial<Record<Channel, Sender>>;
  /** Opens a tenant's sealed settings (AppContext.unseal): its own Twilio account sends its texts. Not in demo mode (the outbox is the demo's). */
  unseal?: (stored: string) => string;
  /** A span around each message's send (traces on, ops/tracing.ts). */
  span?: WorkerOptions['span'];
}

/** The tenant's own Twilio account for a text, when it has one (tenant-settings). */
async function tenantTwilio(data: Database, unseal: (stored: string) => string, apiBase: string, message: ClaimedDelivery): Promise<Sender | undefined> {
  if (message.channel !== 'sms' || message.organizationId == null) return undefined;
  const own = await tenantOwnSettings(data, message.organizationId);
  if (own.twilio === null) return undefined;
  return twilioSender({ apiBase, ...(JSON.parse(unseal(own.twilio)) as Omit<TwilioSettings, 'apiBase'>) });
}

export function createDelivery(options: DeliveryOptions): Delivery {
  const now = options.now ?? Date.now;
  const senders: Partial<Record<Channel, Sender>> = options.senders ?? {
    ...(options.settings.smtp ? { email: smtpSender(options.settings.smtp) } : {}),
    ...(options.settings.sms ? { sms: twilioSender(options.settings.sms) } : {}),
  };
  const policy: QueuePolicy = {
    ...DEFAULT_POLICY,
    maxAttempts: options.settings.maxAttempts,
    delivering: new Set(Object.keys(senders) as Channel[]),
    keepContent: options.demo,
  };
  const unseal = options.demo ? undefined : options.unseal;
  const apiBase = options.settings.twilioApiBase ?? options.settings.sms?.apiBase ?? TWILIO_API_BASE;
  const worker = createDeliveryWorker({
    data: options.data,
    senders,
    ...(unseal ? { tenantSender: (message: ClaimedDelivery) => tenantTwilio(options.data, unseal, apiBase, message) } : {}),
    now,
    policy,
    ...(options.settings.leaseMs ? { leaseMs: options.settings.leaseMs } : {}),
    ...(options.log ? { log: options.log } : {}),
    ...(options.span ? { span: options.span } : {}),
  });
  return {
    policy,
    tenantTransports: unseal !== undefined,
    worker,
    email: (t, input) => enqueue(t, composeEmail(input), policy, now()),
    text: (t, input) => enqueue(t, composeText(input), policy, now()),
    kick: () => worker.kick(),
    outbox: (q, to) => listOutbox(q, to),
    purge: (q) => purgeDeliveries(q, now()),
    start: () => worker.start(),
    stop: () => worker.stop(),
  };
}
