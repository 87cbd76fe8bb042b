/**
 * Email over SMTP with nodemailer (a pooled transport): SMTP_URL, optional SMTP_USER / SMTP_PASSWORD,
 * MAIL_FROM. Each message goes out with both parts (text and HTML) and a Message-ID made from the
 * delivery's id, the same on every retry, so a receiving system that dedupes by Message-ID drops a
 * second copy after a worker died between the relay's "250" and the queue's "sent".
 * Answers: 2xx = sent; a 5xx reply or a refused address = permanent; 4xx, refused credentials,
 * timeouts, TLS and network errors = retry (up to DELIVERY_MAX_ATTEMPTS).
 */
import crypto from 'node:crypto';
import nodemailer from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { SmtpSettings } from '../config.js';
import type { ClaimedDelivery, SendResult, Sender } from '../types.js';

export interface SmtpOptions {
  /** Connection and reply time limits (default 15 s; far below the queue's lease). */
  timeoutMs?: number;
}

/** A stable Message-ID for a delivery: the same on every attempt of that message. */
export function messageIdFor(message: Pick<ClaimedDelivery, 'id' | 'createdAt'>, from: string): string {
  const domain = (addressparser(from, { flatten: true })[0]?.address ?? 'localhost').split('@')[1] ?? 'localhost';
  const tag = crypto.createHash('sha256').update(`${message.id}:${message.createdAt}`).digest('hex').slice(0, 16);
  return `<delivery.${message.id}.${tag}@${domain}>`;
}

interface SmtpError extends Error {
  code?: string;
  responseCode?: number;
  response?: string;
}

export function classifySmtpError(error: SmtpError): SendResult {
  const code = error.responseCode;
  const text = (error.response ?? error.message).slice(0, 500);
  // Refused credentials are the operator's to fix (SMTP_USER / SMTP_PASSWORD): keep the message for then.
  if (error.code === 'EAUTH') return { ok: false, retryable: true, error: text, code: String(code ?? error.code) };
  if (code !== undefined && code >= 500) return { ok: false, retryable: false, error: text, code: String(code) };
  if (error.code === 'EENVELOPE' && code === undefined) return { ok: false, retryable: false, error: text, code: error.code };
  return { ok: false, retryable: true, error: text, ...(code !== undefined ? { code: String(code) } : error.code ? { code: error.code } : {}) };
}

export function smtpSender(settings: SmtpSettings, options: SmtpOptions = {}): Sender {
  const timeout = options.timeoutMs ?? 15_000;
  const transport = nodemailer.createTransport({
    url: settings.url,
    ...(settings.auth ? { auth: settings.auth } : {}),
    pool: true,
    maxConnections: 2,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
    ...(settings.ca ? { tls: { ca: settings.ca } } : {}),
  });
  return {
    channel: 'email',
    name: 'smtp',
    async send(message: ClaimedDelivery): Promise<SendResult> {
      try {
        // The tenant's own sender when it has one (tenant-settings --mail-from), through this relay.
        const from = message.from ?? settings.from;
        const info = await transport.sendMail({
          from,
          to: message.to,
          subject: message.subject ?? '',
          text: message.text,
          ...(message.html ? { html: message.html } : {}),
          messageId: messageIdFor(message, from),
          headers: { 'Content-Language': message.language, 'Auto-Submitted': 'auto-generated' },
        });
        if (info.rejected.length > 0 && info.accepted.length === 0)
          return { ok: false, retryable: false, error: `the relay refused ${message.to}: ${info.response}` };
        return { ok: true, providerId: info.messageId, answer: info.response };
      } catch (error) {
        return classifySmtpError(error as SmtpError);
      }
    },
    async close() {
      transport.close();
    },
  };
}
