/**
 * Security notices by email (the outbox in the demo): the account's password was changed, a sign-in
 * method or a passkey was added, the phone number was changed, a recovery code was used. They tell the
 * owner when someone else did it, with the way back (a reset link; for a passkey, "This wasn't me"). Every notice goes out from its
 * template (delivery/email/compose.ts, texts in locales/<lang>/email.json): HTML and text, in the
 * owner's language and the brand of the host the visitor used; the demo outbox keeps the rendered copy.
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import type { EmailInput } from '../delivery/email/compose.js';
import { publicBase, requestHostname } from './publicUrl.js';
import type { MfaType } from './users.js';
import type { UserRow } from '../db/accounts.js';

type Owner = Pick<UserRow, 'email'> & Partial<Pick<UserRow, 'language'>>;

/** The notices: every template kind that reports a change with its time and a reset link. */
type Notice = Extract<EmailInput, { when: number }>;

/** q: the transaction of the change it reports (the notice commits with it), or ctx.data after the commit. */
async function notice(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, template: (link: string, when: number) => Notice): Promise<void> {
  await ctx.outbox.send(q, {
    channel: 'email',
    to: user.email,
    template: template(`${publicBase(ctx, req)}/resetPassword`, ctx.now()),
    language: user.language,
    hostname: requestHostname(req),
  });
}

export function notifyPasswordChanged(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner): Promise<void> {
  return notice(ctx, q, req, user, (link, when) => ({ kind: 'password-changed', link, when }));
}

export function notifyMfaEnrolled(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, type: MfaType): Promise<void> {
  return notice(ctx, q, req, user, (link, when) => ({ kind: 'mfa-added', link, when, method: type }));
}

/** The number that receives codes changed (after a code sent to the new number came back): the owner hears of it at their email. */
export function notifyPhoneChanged(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, phone: string): Promise<void> {
  const phoneEnd = phone.replace(/\D/g, '').slice(-4);
  return notice(ctx, q, req, user, (link, when) => ({ kind: 'phone-changed', link, when, phone: phoneEnd }));
}

/**
 * A passkey was added: it signs in alone, so the owner must hear of it, with the way to undo it
 * (`notMeLink`: "This wasn't me" removes that passkey and ends every session, services/passkeyNotMe.ts).
 */
export function notifyPasskeyAdded(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, notMeLink: string): Promise<void> {
  return notice(ctx, q, req, user, (_resetLink, when) => ({ kind: 'passkey-added', link: notMeLink, when }));
}

/** A recovery code was used to sign in (how many are left, so the owner knows when to make new ones). */
export function notifyRecoveryCodeUsed(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, left: number): Promise<void> {
  return notice(ctx, q, req, user, (link, when) => ({ kind: 'recovery-code-used', link, when, left }));
}
