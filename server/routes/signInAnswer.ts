/**
 * The answer of a sign-in that ends on a browser navigation instead of an API call (single sign-on:
 * the SAML assertion consumer, the OpenID Connect callback, the demo IdP; a Duo enrolment's callback),
 * for the result of completeAuthentication (services/signIn.ts), so that the account's state gets the
 * answer a password sign-in gets from the app (SPEC §4, "login response"):
 * - SUCCESS: 303 to where the visitor goes on;
 * - TRIAL_EXPIRED: the expired-trial session key in its cookie (as the storeExpiredTrialSession action
 *   keeps it), then 303 to /trialExpired;
 * - ACCOUNT_MOVED: signed out of every session (the logoutAllSessions action), then a page that goes
 *   to the new server after 5 seconds, with its link;
 * - anything else: 403, a page with the sentence the sign-in page would show.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { escapeHtml } from '../security/html.js';
import { EXPIRED_TRIAL_KEY_TTL_MS } from '../services/accountState.js';
import { revokeAccountTokens } from '../services/revocation.js';
import type { LoginResult } from '../services/signIn.js';
import { EXPIRED_TRIAL_COOKIE } from './expiredAccount.js';

/** What the sign-in page says for these codes (locales/en-us/login.json login.errors). */
const REFUSALS: Record<string, string> = {
  APP_USER_NOT_ENABLED: 'Your user account has been disabled. Please contact your system administrator.',
  ACCOUNT_SUSPENDED: 'Your user account has been suspended. Please contact your system administrator.',
  ACCOUNT_NOT_ACTIVATED: 'Your user account is not active. Please contact your system administrator.',
};
const GENERIC = 'Error during login';
/** SPEC: the account-moved redirect comes after 5000 ms. */
const MOVED_REDIRECT_S = 5;

function page(reply: FastifyReply, status: number, title: string, body: string, head = ''): FastifyReply {
  return reply
    .code(status)
    .header('Cache-Control', 'no-store')
    .type('text/html; charset=utf-8')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">${head}<title>${escapeHtml(title)}</title></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`,
    );
}

/** An absolute http(s) URL without credentials (the moved account's server), or undefined. */
function serverUrl(value: string | undefined): string | undefined {
  try {
    const url = new URL(value ?? '');
    return (url.protocol === 'https:' || url.protocol === 'http:') && !url.username && !url.password ? url.href : undefined;
  } catch {
    return undefined;
  }
}

export async function answerSignIn(ctx: AppContext, req: FastifyRequest, reply: FastifyReply, result: LoginResult, landing: string): Promise<FastifyReply> {
  switch (result.resultCode) {
    case 'SUCCESS':
      return reply.code(303).header('Location', landing).header('Cache-Control', 'no-store').send();
    case 'TRIAL_EXPIRED':
      // Read by the app (it is not HttpOnly, as the app's own action writes it); Lax: set on the IdP's cross-site return.
      if (result.expiredTrialSessionKey)
        reply.setCookie(EXPIRED_TRIAL_COOKIE, result.expiredTrialSessionKey, {
          path: '/',
          maxAge: EXPIRED_TRIAL_KEY_TTL_MS / 1000,
          sameSite: 'lax',
          secure: true,
        });
      return reply.code(303).header('Location', '/trialExpired').header('Cache-Control', 'no-store').send();
    case 'ACCOUNT_MOVED': {
      const userId = await ctx.sessions.end(req, reply, true);
      if (userId !== undefined) await revokeAccountTokens(ctx, userId);
      const url = serverUrl(result.url);
      if (!url) return page(reply, 403, 'Account Moved', `<p role="alert">${escapeHtml(GENERIC)}</p><p><a href="/login">Login</a></p>`);
      const link = escapeHtml(url);
      return page(
        reply,
        200,
        'Account Moved',
        `<p role="status">Your account has moved. You will be taken to its new address in ${MOVED_REDIRECT_S} seconds.</p><p><a href="${link}">Login</a></p>`,
        `<meta http-equiv="refresh" content="${MOVED_REDIRECT_S};url=${link}">`,
      );
    }
    default:
      return page(
        reply,
        403,
        'Sign in',
        `<p role="alert">${escapeHtml(REFUSALS[result.resultCode] ?? GENERIC)}</p><p><a href="/login">Back to sign in</a></p>`,
      );
  }
}
