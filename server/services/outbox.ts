/**
 * Every email and text the flows send goes through `ctx.outbox.send`: the message is queued in the
 * durable delivery queue (server/delivery, table `deliveries`) on `q` — the caller's transaction when
 * it has one, so the message exists exactly when its effect does — and each instance's worker sends it
 * (SMTP_URL, SMS_PROVIDER) with retries. A message with a template goes out rendered from it (HTML and
 * text in the recipient's language, in the brand of the host the visitor used); one without is sent as
 * its plain text. In demo mode a copy stays in the outbox table for /dev/outbox (DEMO-TENANT.md): in
 * the words the flow wrote, or (security notices, which have no words in code) as rendered; outside
 * demo mode nothing keeps a link or a code once it was sent.
 */
import type { Database, Queryable } from '../db/data.js';
import { brandFor } from '../delivery/email/brand.js';
import { composeEmail, composeText, type EmailInput, type TextInput } from '../delivery/email/compose.js';
import { emailTexts, resolveLanguage } from '../delivery/email/texts.js';
import type { Delivery } from '../delivery/index.js';
import { enqueue, outboxMessages } from '../delivery/queue.js';
import { organizationOfEmail, tenantOwnSettings } from '../db/tenants.js';
import type { NewDelivery, OutboxMessage } from '../delivery/types.js';
import { insertOutboxCopy, outboxRows } from '../db/outbox.js';

export type { OutboxMessage };

/** A message as a flow hands it over: the demo outbox's fields, and what the real message is made of. */
export type OutgoingMessage = Omit<OutboxMessage, 'createdAt' | 'text'> & {
  /**
   * What the demo outbox shows (the flow's own words, which tests and DEMO-TENANT.md name); without it
   * the demo copy is the rendered message. A message needs a template or a text.
   */
  text?: string | undefined;
  /** What the sent message is rendered from; without it `subject` and `text` go out as they are. */
  template?: EmailInput | TextInput | undefined;
  /** The recipient's language (users.language); unknown or missing: en-us. */
  language?: string | null | undefined;
  /** Host name of the visitor's request: selects the brand (name, logo, public URL) of the message. */
  hostname?: string | undefined;
  /** The recipient's tenant (its own sender goes first); an email's is found by its address when not given. */
  organizationId?: number | null | undefined;
};

export interface Outbox {
  /** Queues the message on q (ctx.data, or the t of the transaction whose effect it reports); returns its delivery id. */
  send(q: Queryable, msg: OutgoingMessage): Promise<number>;
  /** The demo outbox (/dev/outbox), newest first; `to` filters by address or phone (case-insensitive). */
  list(to?: string): Promise<OutboxMessage[]>;
}

export interface OutboxOptions {
  data: Database;
  delivery: Delivery;
  now: () => number;
  /** Keep the demo copy for /dev/outbox. */
  demo: boolean;
  publicUrl: string;
  publicPort: number;
}

const isTextTemplate = (t: EmailInput | TextInput): t is TextInput => t.kind === 'reset-code' || t.kind === 'mfa-code';

export function createOutbox(options: OutboxOptions): Outbox {
  const { data, delivery, now } = options;

  async function render(q: Queryable, msg: OutgoingMessage): Promise<NewDelivery> {
    const brand = await brandFor(q, (msg.hostname ?? '').toLowerCase(), { publicUrl: options.publicUrl, publicPort: options.publicPort });
    const addressed = { to: msg.to, language: msg.language, brand };
    const template = msg.template;
    if (template && msg.channel === 'sms' && isTextTemplate(template)) return composeText({ ...template, ...addressed });
    if (template && msg.channel === 'email' && !isTextTemplate(template)) return composeEmail({ ...template, ...addressed });
    if (msg.text === undefined) throw new Error(`a ${msg.channel} message without a text needs a template of its channel`);
    return {
      channel: msg.channel,
      kind: msg.channel === 'email' ? 'notice' : 'text',
      to: msg.to,
      language: resolveLanguage(msg.language, emailTexts().keys()),
      subject: msg.subject,
      text: msg.text,
      link: msg.link,
      code: msg.code,
    };
  }

  return {
    async send(q, msg) {
      const rendered = await render(q, msg);
      // The flow's words when it gave them, else what was rendered (in the recipient's language).
      const copy = msg.text === undefined ? rendered : msg;
      if (options.demo)
        await insertOutboxCopy(q, {
          channel: msg.channel,
          to_address: msg.to,
          subject: copy.subject ?? null,
          text: copy.text ?? rendered.text,
          link: copy.link ?? null,
          code: copy.code ?? null,
          created_at: now(),
        });
      // The recipient's tenant: its own From address and Twilio account go before the deployment's.
      const organizationId = msg.organizationId !== undefined ? msg.organizationId : msg.channel === 'email' ? await organizationOfEmail(q, msg.to) : null;
      const own = await tenantOwnSettings(q, organizationId);
      const id = await enqueue(
        q,
        { ...rendered, organizationId, ...(msg.channel === 'email' && own.mailFrom ? { from: own.mailFrom } : {}) },
        delivery.policy,
        now(),
        delivery.tenantTransports && msg.channel === 'sms' && own.twilio !== null,
      );
      // Outside a transaction the row is there now; inside one it commits when the caller's transaction
      // does (the worker's next poll finds it if this pass came too early).
      if (q === data) delivery.kick();
      else setTimeout(() => delivery.kick(), 50).unref();
      return id;
    },
    async list(to) {
      return outboxMessages(await outboxRows(data), to);
    },
  };
}
