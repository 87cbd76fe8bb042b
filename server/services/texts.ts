/**
 * Text messages (SMS) with a budget: at most LIMITS.textsPerPhonePerHour per phone number and
 * LIMITS.textsPerAccountPerHour per account (like the mail budget, services/mail.ts), counted in the database for every instance (SMS pumping:
 * 280 texts to one phone in 4.7 s before). A refused text says when to retry.
 */
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import type { TextInput } from '../delivery/email/compose.js';
import { deliveryState } from '../delivery/queue.js';
import { textFailure, type TextFailure } from '../delivery/sms/twilio.js';
import { LIMITS, retryAfterSeconds } from './limits.js';

export type TextResult = { sent: true; deliveryId: number } | { sent: false; retryAfter: number };

/**
 * How long a request that sent a code by text waits for the provider's first answer (the worker sends
 * right after the commit). A refusal within it (an invalid number, a recipient that refuses texts)
 * becomes the request's answer; a slower or temporary answer lets the request succeed (the queue
 * retries, and 'Resend code' asks again).
 */
export const TEXT_ANSWER_WAIT_MS = 3000;
const TEXT_POLL_MS = 25;

/**
 * The provider's refusal of a queued text, once it has answered: what it means for the visitor
 * (delivery/sms/twilio.ts textFailure), or undefined when the text was sent, is held (no provider:
 * the demo outbox), is still being tried, or no answer came within waitMs.
 */
export async function textRefusal(ctx: AppContext, deliveryId: number, waitMs = TEXT_ANSWER_WAIT_MS): Promise<TextFailure | undefined> {
  ctx.delivery.kick();
  const until = Date.now() + waitMs;
  for (;;) {
    const state = await deliveryState(ctx.data, deliveryId);
    if (!state || state.status === 'sent' || state.status === 'held') return undefined;
    // Recorded by queue.settle as "<provider code>: <message>".
    if (state.status === 'failed') return textFailure(/^([^:\s]+):/.exec(state.lastResult ?? '')?.[1]);
    // A temporary refusal was recorded and the queue will try again: nothing more to wait for.
    if (state.lastResult !== null) return undefined;
    if (Date.now() >= until) return undefined;
    await new Promise((resolve) => setTimeout(resolve, TEXT_POLL_MS));
  }
}

/**
 * Sends the message `compose` makes (it issues the code, on t) only when the budgets allow it; the text
 * that goes out is `kind`'s template in the user's language (the composed words stay in the demo
 * outbox). One transaction holds the budget, the code and the queued text: a crash or an error leaves
 * all of them or none, never a live code that no text carries. compose awaits only t's statements.
 */
export async function sendText(
  ctx: AppContext,
  user: { id: number; language?: string | null; organization_id?: number | null },
  phone: string,
  kind: TextInput['kind'],
  compose: (t: Queryable) => Promise<{ text: string; code: string }>,
): Promise<TextResult> {
  const userId = user.id;
  const window = LIMITS.window.texts;
  const digits = phone.replace(/\D/g, '');
  return ctx.limits.atomically(async (t): Promise<TextResult> => {
    const byPhone = await ctx.limits.peek(t, 'text-phone', digits, window);
    const byAccount = await ctx.limits.peek(t, 'text-account', String(userId), window);
    if (byPhone.count >= LIMITS.textsPerPhonePerHour) return { sent: false, retryAfter: retryAfterSeconds(byPhone.resetAt, ctx.now()) };
    if (byAccount.count >= LIMITS.textsPerAccountPerHour) return { sent: false, retryAfter: retryAfterSeconds(byAccount.resetAt, ctx.now()) };
    await ctx.limits.hit(t, 'text-phone', digits, window);
    await ctx.limits.hit(t, 'text-account', String(userId), window);
    const message = await compose(t);
    const deliveryId = await ctx.outbox.send(t, {
      channel: 'sms',
      to: phone,
      ...message,
      template: { kind, code: message.code },
      language: user.language,
      organizationId: user.organization_id ?? null,
    });
    return { sent: true, deliveryId };
  });
}
