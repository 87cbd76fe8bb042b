/**
 * Security notices by email (the outbox in the demo): the account's password was changed, a sign-in
 * method was added, the phone number was changed. They tell the owner when someone else did it, with the
 * way back (a reset link).
 */
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Queryable } from '../db/data.js';
import type { EmailInput } from '../delivery/email/compose.js';
import { publicBase, requestHostname } from './publicUrl.js';
import type { MfaType, UserRow } from './users.js';

const METHOD_NAMES: Record<MfaType, string> = {
  TOTP: 'an authenticator app',
  SMSOTP: 'text messages',
  DUO: 'Duo',
  U2F_TOKEN: 'a security key',
};

/** q: the transaction of the change it reports (the notice commits with it), or ctx.data after the commit. */
type Owner = Pick<UserRow, 'email'> & Partial<Pick<UserRow, 'language'>>;

/**
 * `template`: the notices with a translated template (password changed, method added) go out from it;
 * the others in the words below.
 */
function notice(
  ctx: AppContext,
  q: Queryable,
  req: FastifyRequest,
  user: Owner,
  subject: string,
  what: string,
  template?: (link: string, when: number) => EmailInput,
): Promise<void> {
  const link = `${publicBase(ctx, req)}/resetPassword`;
  const at = ctx.now();
  const when = new Date(at).toUTCString();
  return ctx.outbox.send(q, {
    channel: 'email',
    to: user.email,
    subject,
    text: `${what} on ${when}. If this was you, nothing more is needed. If it was not, choose a new password now: ${link} and contact your system administrator.`,
    link,
    ...(template ? { template: template(link, at) } : {}),
    language: user.language,
    hostname: requestHostname(req),
  });
}

export function notifyPasswordChanged(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner): Promise<void> {
  return notice(
    ctx,
    q,
    req,
    user,
    'Your password was changed',
    'The password of your account was changed and every other session was signed out',
    (link, when) => ({ kind: 'password-changed', link, when }),
  );
}

export function notifyMfaEnrolled(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Owner, type: MfaType): Promise<void> {
  return notice(ctx, q, req, user, 'A sign-in method was added', `Two-step verification by ${METHOD_NAMES[type]} was added to your account`, (link, when) => ({
    kind: 'mfa-added',
    link,
    when,
    method: type,
  }));
}

/** The number that receives codes changed (after a code sent to the new number came back): the owner hears of it at their email. */
export function notifyPhoneChanged(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Pick<UserRow, 'email'>, phone: string): Promise<void> {
  const shown = `•••${phone.replace(/\D/g, '').slice(-4)}`;
  return notice(ctx, q, req, user, 'Your phone number was changed', `The phone number of your account was changed to the number ending in ${shown}`);
}

/** A passkey was added: it signs in alone, so the owner must hear of it. */
export function notifyPasskeyAdded(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Pick<UserRow, 'email'>): Promise<void> {
  return notice(ctx, q, req, user, 'A passkey was added', 'A passkey that signs in to your account without a password was added');
}

/** A recovery code was used to sign in (how many are left, so the owner knows when to make new ones). */
export function notifyRecoveryCodeUsed(ctx: AppContext, q: Queryable, req: FastifyRequest, user: Pick<UserRow, 'email'>, left: number): Promise<void> {
  return notice(ctx, q, req, user, 'A recovery code was used', `A recovery code was used to sign in to your account (recovery codes left: ${left})`);
}
