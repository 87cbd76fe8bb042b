/**
 * Text messages through Twilio Programmable Messaging (the REST API, no SDK: one documented call).
 * POST {TWILIO_API_BASE}/2010-04-01/Accounts/{AccountSid}/Messages.json, HTTP Basic auth with the
 * Account SID and Auth Token, form-encoded To, From (or MessagingServiceSid) and Body. Twilio answers
 * 201 with the Message resource (sid, status) or an error {code, message, more_info, status}.
 *
 * Outcomes: 201 = sent (the SM… sid recorded); 429, 5xx, timeouts and network errors = retry;
 * refused credentials (401, code 20003) = retry (the operator fixes TWILIO_AUTH_TOKEN); any other 4xx
 * (an invalid or unreachable number, an opted-out recipient) = permanent. Twilio has no idempotency
 * key for this call: a worker that dies after Twilio accepted and before the queue recorded it sends
 * that one text again (at-least-once).
 */
import type { TwilioSettings } from '../config.js';
import type { ClaimedDelivery, SendResult, Sender } from '../types.js';

export interface TwilioOptions {
  /** Time limit of one request (default 10 s, far below the queue's lease). */
  timeoutMs?: number;
  fetch?: typeof fetch;
}

/** What a failed text means for the visitor (TEXT_NOT_DELIVERED's textFailure, services/texts.ts): docs/delivery-and-sso.md. */
export type TextFailure = 'INVALID_NUMBER' | 'NUMBER_REFUSES_TEXTS' | 'PROVIDER_UNAVAILABLE';

/** Twilio error codes about the recipient's number (their Error and Warning Dictionary). */
const NUMBER_CODES: Record<number, TextFailure> = {
  21211: 'INVALID_NUMBER', // The 'To' number is not a valid phone number
  21614: 'INVALID_NUMBER', // 'To' number is not a valid mobile number
  21612: 'NUMBER_REFUSES_TEXTS', // The 'To' phone number is not currently reachable
  21408: 'NUMBER_REFUSES_TEXTS', // Permission to send an SMS has not been enabled for the region
  21610: 'NUMBER_REFUSES_TEXTS', // Attempt to send to unsubscribed recipient
  21608: 'NUMBER_REFUSES_TEXTS', // Trial accounts: the number is unverified
};

/** The visitor-facing meaning of a provider error code recorded on a failed text. */
export function textFailure(code: string | undefined): TextFailure {
  return NUMBER_CODES[Number(code)] ?? 'PROVIDER_UNAVAILABLE';
}

interface TwilioError {
  code?: number;
  message?: string;
  more_info?: string;
  status?: number;
}

export function twilioSender(settings: TwilioSettings, options: TwilioOptions = {}): Sender {
  const doFetch = options.fetch ?? fetch;
  const url = `${settings.apiBase}/2010-04-01/Accounts/${encodeURIComponent(settings.accountSid)}/Messages.json`;
  const authorization = `Basic ${Buffer.from(`${settings.accountSid}:${settings.authToken}`).toString('base64')}`;
  return {
    channel: 'sms',
    name: 'twilio',
    async send(message: ClaimedDelivery): Promise<SendResult> {
      const form = new URLSearchParams({ To: message.to, Body: message.text });
      if (settings.messagingServiceSid) form.set('MessagingServiceSid', settings.messagingServiceSid);
      else if (settings.from) form.set('From', settings.from);
      let response: Response;
      try {
        response = await doFetch(url, {
          method: 'POST',
          headers: { Authorization: authorization, 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json' },
          body: form.toString(),
          signal: AbortSignal.timeout(options.timeoutMs ?? 10_000),
        });
      } catch (error) {
        return { ok: false, retryable: true, error: `Twilio unreachable: ${(error as Error).message}`, code: 'NETWORK' };
      }
      const body = (await response.json().catch(() => ({}))) as TwilioError & { sid?: string; status?: string | number };
      if (response.status === 200 || response.status === 201) {
        if (typeof body.sid !== 'string') return { ok: false, retryable: true, error: `Twilio answered ${response.status} without a message sid` };
        return { ok: true, providerId: body.sid, answer: `${response.status} ${String(body.status ?? 'queued')}` };
      }
      const code = body.code !== undefined ? String(body.code) : String(response.status);
      const error = `${response.status} ${body.message ?? response.statusText}${body.more_info ? ` (${body.more_info})` : ''}`;
      const retryable = response.status === 429 || response.status >= 500 || response.status === 401;
      return { ok: false, retryable, error, code };
    },
  };
}
