/**
 * One delivery worker per instance: it polls the queue (and runs at once when kicked after an
 * enqueue), claims a batch under a lease, hands each message to its channel's sender one after the
 * other, and settles it. Several instances each run one; the queue's claim keeps them apart. Sending
 * happens outside any transaction (docs/data-layer.md: no HTTP inside `tx`).
 */
import crypto from 'node:crypto';
import type { Database } from '../db/data.js';
import { claim, DEFAULT_POLICY, failAbandoned, settle, type QueuePolicy } from './queue.js';
import type { Channel, ClaimedDelivery, SendResult, Sender } from './types.js';

export interface WorkerOptions {
  data: Database;
  /** The deployment's sender of each channel. */
  senders: Partial<Record<Channel, Sender>>;
  /**
   * A tenant's own sender for a message (its Twilio account), in preference to the deployment's; with
   * it the worker claims every channel (a tenant may deliver one the deployment does not) and polls.
   */
  tenantSender?: (message: ClaimedDelivery) => Promise<Sender | undefined>;
  now?: () => number;
  /** This worker's id in lease_owner (default: a random one per process start). */
  owner?: string;
  /** How long a claim is held: longer than a send can take (SMTP and Twilio time out well before; default 60 s). */
  leaseMs?: number;
  batchSize?: number;
  /** Poll interval when idle (default 2 s). */
  pollMs?: number;
  policy?: Partial<Omit<QueuePolicy, 'delivering'>>;
  log?: { info(msg: string): void; warn(msg: string): void; error(msg: string): void };
  /** A span around each message's send and settling (traces on: AppContext.tracing.rootSpan); its attributes name the channel and kind, never the address. */
  span?: <T>(name: string, attributes: Readonly<Record<string, string>>, fn: () => Promise<T>) => Promise<T>;
}

export interface DeliveryWorker {
  readonly owner: string;
  /** Starts polling (idempotent). */
  start(): void;
  /** Asks for a pass now (after a message was enqueued and committed). */
  kick(): void;
  /** One pass: claims and sends due messages until none is left; resolves with how many were handled. */
  runOnce(): Promise<number>;
  /** Stops polling and waits for the pass in progress (its claimed messages are settled first). */
  stop(): Promise<void>;
}

/**
 * Sends one claimed message with its channel's sender and settles it (sent, retried later, failed for
 * good, or its lease lost to another worker); false when no sender has its channel.
 */
async function deliver(
  options: WorkerOptions,
  { owner, policy, now }: { owner: string; policy: Parameters<typeof settle>[5]; now: () => number },
  message: Parameters<typeof settle>[2],
): Promise<void> {
  const sender = (await options.tenantSender?.(message).catch(() => undefined)) ?? options.senders[message.channel];
  const result: SendResult = sender
    ? await sender.send(message).catch((error: unknown) => ({ ok: false as const, retryable: true, error: String((error as Error)?.message ?? error) }))
    : // Its tenant's transport was removed after it was queued, and the deployment has none.
      { ok: false, retryable: false, error: `no transport for ${message.channel} any more` };
  const outcome = await settle(options.data, owner, message, sender?.name ?? 'none', result, policy, now());
  if (outcome === 'failed' || outcome === 'retry')
    options.log?.warn(
      `delivery ${message.id} (${message.channel} ${message.kind}) ${outcome === 'failed' ? 'failed' : 'will be retried'}: ${result.ok ? '' : result.error}`,
    );
  if (outcome === 'lost-lease') options.log?.warn(`delivery ${message.id}: the lease ran out before ${sender?.name} answered; another worker has it`);
}

export function createDeliveryWorker(options: WorkerOptions): DeliveryWorker {
  const now = options.now ?? Date.now;
  const owner = options.owner ?? `${process.pid}-${crypto.randomBytes(6).toString('hex')}`;
  const leaseMs = options.leaseMs ?? 60_000;
  const batchSize = options.batchSize ?? 10;
  const pollMs = options.pollMs ?? 2000;
  const policy = { ...DEFAULT_POLICY, keepContent: false, ...options.policy };
  const deploymentChannels = (Object.keys(options.senders) as Channel[]).filter((c) => options.senders[c] !== undefined);
  const channels: Channel[] = options.tenantSender ? ['email', 'sms'] : deploymentChannels;
  const log = options.log;

  let running: Promise<number> | null = null;
  let timer: NodeJS.Timeout | null = null;
  let started = false;
  let again = false;

  async function pass(): Promise<number> {
    let handled = 0;
    await failAbandoned(options.data, policy.maxAttempts, now());
    for (;;) {
      const batch = await claim(options.data, owner, channels, { limit: batchSize, leaseMs, maxAttempts: policy.maxAttempts, now: now() });
      if (batch.length === 0) return handled;
      for (const message of batch) {
        const send = () => deliver(options, { owner, policy, now }, message);
        await (options.span
          ? options.span(`delivery ${message.channel}`, { 'frontdoor.delivery.channel': message.channel, 'frontdoor.delivery.kind': message.kind }, send)
          : send());
        handled += 1;
      }
    }
  }

  function runOnce(): Promise<number> {
    if (running) {
      again = true;
      return running;
    }
    running = pass()
      .catch((error: unknown) => {
        log?.error(`delivery worker pass failed: ${(error as Error).message}`);
        return 0;
      })
      .finally(() => {
        running = null;
        if (again && started) {
          again = false;
          void runOnce();
        }
      });
    return running;
  }

  function schedule(): void {
    if (!started) return;
    timer = setTimeout(() => {
      void runOnce().finally(schedule);
    }, pollMs);
    timer.unref();
  }

  return {
    owner,
    start() {
      if (started || channels.length === 0) return;
      started = true;
      void runOnce();
      schedule();
    },
    kick() {
      if (started) void runOnce();
    },
    runOnce,
    async stop() {
      started = false;
      if (timer) clearTimeout(timer);
      timer = null;
      await running;
      await Promise.all(Object.values(options.senders).map((s) => s?.close?.()));
    },
  };
}
