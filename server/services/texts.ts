/**
 * Text messages (SMS) with a budget: at most LIMITS.textsPerPhonePer15Min per phone number and
 * LIMITS.textsPerAccountPer15Min per account, counted in the database for every instance (SMS pumping:
 * 280 texts to one phone in 4.7 s before). A refused text says when to retry.
 */
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import type { TextInput } from '../delivery/email/compose.js';
import { LIMITS, retryAfterSeconds } from './limits.js';

export type TextResult = { sent: true } | { sent: false; retryAfter: number };

/**
 * Sends the message `compose` makes (it issues the code, on t) only when the budgets allow it; the text
 * that goes out is `kind`'s template in the user's language (the composed words stay in the demo
 * outbox). One transaction holds the budget, the code and the queued text: a crash or an error leaves
 * all of them or none, never a live code that no text carries. compose awaits only t's statements.
 */
export async function sendText(
  ctx: AppContext,
  user: { id: number; language?: string | null },
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
    if (byPhone.count >= LIMITS.textsPerPhonePer15Min) return { sent: false, retryAfter: retryAfterSeconds(byPhone.resetAt, ctx.now()) };
    if (byAccount.count >= LIMITS.textsPerAccountPer15Min) return { sent: false, retryAfter: retryAfterSeconds(byAccount.resetAt, ctx.now()) };
    await ctx.limits.hit(t, 'text-phone', digits, window);
    await ctx.limits.hit(t, 'text-account', String(userId), window);
    const message = await compose(t);
    await ctx.outbox.send(t, { channel: 'sms', to: phone, ...message, template: { kind, code: message.code }, language: user.language });
    return { sent: true };
  });
}
