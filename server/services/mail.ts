/**
 * Emails a visitor can make the server send (reset links, activation emails) have a budget, like
 * texts: LIMITS.mailsPerAddressPerHour per recipient address and LIMITS.mailsPerAccountPerHour per
 * account, counted in the database for every instance (506 emails to one inbox in 63 s before).
 *
 * The three routes that send them (register, request-activation-email, reset-password-init) demand
 * the bot check under load: from the LIMITS.mailRequestsPerAddressBeforeBotCheck+1-th request of an
 * address in the hour, or for everyone while more than LIMITS.mailRequestsPerMinuteBeforeBotCheck
 * arrive in a minute from all addresses together. A browser solves it without the visitor noticing
 * (src/api/operation-caller.ts asks again with a token); a script pays the work for every email.
 *
 * Security notices (password changed, method added, phone changed) follow an action that needed a
 * password or a code, so they are not budgeted: a notice must never be dropped.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import type { BotCheckAction } from './botCheck.js';
import { LIMITS, retryAfterSeconds } from './limits.js';
import type { OutgoingMessage } from './outbox.js';
import { normalizeEmail } from '../db/accounts.js';

export type MailResult = { sent: true } | { sent: false; retryAfter: number };

type Mail = Omit<OutgoingMessage, 'channel'>;

/** Whether the budgets of this recipient (and account) allow one more email; counts it, on t, when they do. */
async function reserveMailOn(ctx: AppContext, t: Queryable, userId: number | null, to: string): Promise<MailResult> {
  const window = LIMITS.window.mails;
  const byAddress = await ctx.limits.peek(t, 'mail-address', normalizeEmail(to), window);
  const byAccount = userId === null ? undefined : await ctx.limits.peek(t, 'mail-account', String(userId), window);
  if (byAddress.count >= LIMITS.mailsPerAddressPerHour) return { sent: false, retryAfter: retryAfterSeconds(byAddress.resetAt, ctx.now()) };
  if (byAccount && byAccount.count >= LIMITS.mailsPerAccountPerHour) return { sent: false, retryAfter: retryAfterSeconds(byAccount.resetAt, ctx.now()) };
  await ctx.limits.hit(t, 'mail-address', normalizeEmail(to), window);
  if (userId !== null) await ctx.limits.hit(t, 'mail-account', String(userId), window);
  return { sent: true };
}

/** Whether the budgets of this recipient (and account) allow one more email; counts it when they do. */
export function reserveMail(ctx: AppContext, userId: number | null, to: string): Promise<MailResult> {
  return ctx.limits.atomically((t) => reserveMailOn(ctx, t, userId, to));
}

/**
 * Sends the email `compose` makes only when the budgets allow it. One transaction holds the budget,
 * what compose writes on t (the reset link or activation key the email carries) and the queued email:
 * a crash or an error leaves all three or none, never a live link nobody received nor an email whose
 * link does not exist. compose awaits only t's statements (a transaction's rule).
 */
export function sendBudgetedMail(ctx: AppContext, userId: number | null, to: string, compose: (t: Queryable) => Promise<Mail>): Promise<MailResult> {
  return ctx.limits.atomically(async (t) => {
    const reserved = await reserveMailOn(ctx, t, userId, to);
    if (reserved.sent) await ctx.outbox.send(t, { channel: 'email', ...(await compose(t)) });
    return reserved;
  });
}

const ALL = '*';

/** Whether mail-sending requests are arriving fast enough (from this address, or from everyone) to demand the bot check. */
export async function mailRequestsUnderLoad(ctx: AppContext, req: FastifyRequest): Promise<boolean> {
  return (
    (await ctx.limits.peek(ctx.data, 'mail-requests', req.ip, LIMITS.window.mails)).count >= LIMITS.mailRequestsPerAddressBeforeBotCheck ||
    (await ctx.limits.peek(ctx.data, 'mail-requests', ALL, LIMITS.window.calls)).count >= LIMITS.mailRequestsPerMinuteBeforeBotCheck
  );
}

export async function countMailRequest(ctx: AppContext, req: FastifyRequest): Promise<void> {
  await ctx.limits.hit(ctx.data, 'mail-requests', req.ip, LIMITS.window.mails);
  await ctx.limits.hit(ctx.data, 'mail-requests', ALL, LIMITS.window.calls);
}

/**
 * The gate of register and request-activation-email: under load a solved bot check for the action is
 * demanded (and spent); the request is then counted. False: answer HUMAN_VERIFICATION_FAILED with
 * recaptchaRequired.
 */
export async function passMailGate(ctx: AppContext, req: FastifyRequest, action: BotCheckAction, token: string | undefined): Promise<boolean> {
  if ((await mailRequestsUnderLoad(ctx, req)) && !(await ctx.botCheck.verify(token, action))) return false;
  await countMailRequest(ctx, req);
  return true;
}

/**
 * A gated request that carried a solved check and succeeded says so: `recaptchaRequired: false` lets the
 * page stop adding a check to its next calls (src/api/botcheck remembers a demand for the page), so the
 * code and password steps that follow a reset request do not each pay the work.
 */
export function checkSettled<T extends object>(token: string | undefined, answer: T): T | (T & { recaptchaRequired: false }) {
  return token === undefined ? answer : { ...answer, recaptchaRequired: false };
}
