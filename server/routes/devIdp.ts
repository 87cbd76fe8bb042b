/**
 * What the demo tenant's identity providers (devOidc.ts, devSamlIdp.ts; dev tools only) share: their
 * options (tests pass their own database, sealer, clock and base URL), their pages, the "Continue as
 * {email}" field and the email check of the sign-in they fake.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Database } from '../db/data.js';
import type { Sealer } from '../sso/connections.js';
import { escapeHtml, htmlPage } from './dev.js';
import { looksLikeEmail } from '../../catalogue/language/patterns.js';

export interface DemoIdpOptions {
  data?: Database;
  sealer?: Sealer;
  now?: () => number;
  baseUrl?: string;
}

/** The options, each defaulting to the server's own. */
export function demoIdpContext(app: FastifyInstance, options: DemoIdpOptions): Required<DemoIdpOptions> {
  return {
    data: options.data ?? app.fd.data,
    sealer: options.sealer ?? { seal: app.fd.seal, unseal: app.fd.unseal },
    now: options.now ?? app.fd.now,
    baseUrl: options.baseUrl ?? app.fd.config.publicUrl,
  };
}

/** A page of a demo provider, never cached. */
export function idpPage(reply: FastifyReply, title: string, status: number, body: string): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(htmlPage(title, `<h1>${escapeHtml(title)}</h1>${body}`));
}

/** A 400 page: the reason, announced, and the way back to the sign-in. */
export function idpFailure(reply: FastifyReply, title: string, message: string): FastifyReply {
  return idpPage(reply, title, 400, `<p role="alert">${escapeHtml(message)}</p><p><a href="/login">Back to sign in</a></p>`);
}

/** "Continue as {hint}" when the request names the user (login_hint), else an email field. */
export function continueAsField(hint: string): string {
  return hint
    ? `<input type="hidden" name="email" value="${escapeHtml(hint)}"><button type="submit">Continue as ${escapeHtml(hint)}</button>`
    : '<label>Email <input name="email" type="email" autocomplete="username" required></label> <button type="submit">Continue</button>';
}

/** The typed email, trimmed, or undefined when it does not look like one. */
export function typedEmail(value: unknown): string | undefined {
  const email = String(value ?? '').trim();
  return looksLikeEmail(email) ? email : undefined;
}

export const TYPE_YOUR_EMAIL = 'Type the email address to sign in with.';
