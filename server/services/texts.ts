/**
 * Text messages (SMS) with a budget: at most LIMITS.textsPerPhonePer15Min per phone number and
 * LIMITS.textsPerAccountPer15Min per account, counted in the database for every instance (SMS pumping:
 * 280 texts to one phone in 4.7 s before). A refused text says when to retry.
 */
import type { AppContext } from '../context.js';
import type { TextInput } from '../delivery/email/compose.js';
import { LIMITS, retryAfterSeconds } from './limits.js';

export type TextResult = { sent: true } | { sent: false; retryAfter: number };

/**
 * Sends the message `compose` makes (it issues the code) only when the budgets allow it; the text that
 * goes out is `kind`'s template in the user's language (the composed words stay in the demo outbox).
 */
export async function sendText(
  ctx: AppContext,
  user: { id: number; language?: string | null },
  phone: string,
  kind: TextInput['kind'],
  compose: () => Promise<{ text: string; code: string }>,
): Promise<TextResult> {
  const userId = user.id;
  const window = LIMITS.window.texts;
  const digits = phone.replace(/\D/g, '');
  const result = await ctx.limits.atomically(async (t): Promise<TextResult> => {
    const byPhone = await ctx.limits.peek(t, 'text-phone', digits, window);
    const byAccount = await ctx.limits.peek(t, 'text-account', String(userId), window);
    if (byPhone.count >= LIMITS.textsPerPhonePer15Min) return { sent: false, retryAfter: retryAfterSeconds(byPhone.resetAt, ctx.now()) };
    if (byAccount.count >= LIMITS.textsPerAccountPer15Min) return { sent: false, retryAfter: retryAfterSeconds(byAccount.resetAt, ctx.now()) };
    await ctx.limits.hit(t, 'text-phone', digits, window);
    await ctx.limits.hit(t, 'text-account', String(userId), window);
    return { sent: true };
  });
  if (result.sent) {
    const message = await compose();
    await ctx.outbox.send(ctx.data, { channel: 'sms', to: phone, ...message, template: { kind, code: message.code }, language: user.language });
  }
  return result;
}
