/**
 * Text messages (SMS) with a budget: at most LIMITS.textsPerPhonePer15Min per phone number and
 * LIMITS.textsPerAccountPer15Min per account, counted in the database for every instance (SMS pumping:
 * 280 texts to one phone in 4.7 s before). A refused text says when to retry.
 */
import type { AppContext } from '../context.js';
import { LIMITS, retryAfterSeconds } from './limits.js';

export type TextResult = { sent: true } | { sent: false; retryAfter: number };

/** Sends the message `compose` makes (it issues the code) only when the budgets allow it. */
export function sendText(ctx: AppContext, userId: number, phone: string, compose: () => { text: string; code: string }): TextResult {
  const window = LIMITS.window.texts;
  const digits = phone.replace(/\D/g, '');
  const result = ctx.limits.atomically((): TextResult => {
    const byPhone = ctx.limits.peek('text-phone', digits, window);
    const byAccount = ctx.limits.peek('text-account', String(userId), window);
    if (byPhone.count >= LIMITS.textsPerPhonePer15Min) return { sent: false, retryAfter: retryAfterSeconds(byPhone.resetAt, ctx.now()) };
    if (byAccount.count >= LIMITS.textsPerAccountPer15Min) return { sent: false, retryAfter: retryAfterSeconds(byAccount.resetAt, ctx.now()) };
    ctx.limits.hit('text-phone', digits, window);
    ctx.limits.hit('text-account', String(userId), window);
    return { sent: true };
  });
  if (result.sent) ctx.outbox.send({ channel: 'sms', to: phone, ...compose() });
  return result;
}
