/**
 * Passkeys: sign-in with a passkey alone (passkeyLoginOptions, passkeyLogin) and the offer to add one
 * after signing in (passkeyOffer, passkeyOfferDecline, passkeyRegisterOptions, passkeyRegister); after
 * a password reset the offer's screen lists the account's passkeys instead (REVIEW: routes/passkeyReview.ts).
 * The WebAuthn work is services/passkeys.ts; docs/mfa.md "Passkeys".
 */
import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify';
import type { AppContext } from '../context.js';
import { rateLimited } from '../errors.js';
import { notifyPasskeyAdded } from '../services/notifications.js';
import { notMeLink } from '../services/passkeyNotMe.js';
import { signedInSignals, unknownCredentialSignals } from '../services/passkeySignals.js';
import { withPasskeyStep } from '../services/passkeyStep.js';
import { reviewPending } from '../services/passkeyReview.js';
import {
  addPasskey,
  declinePasskeyOffer,
  passkeyLoginOptions,
  passkeyOfferFor,
  passkeyRegistrationOptions,
  sessionIsFresh,
  verifyPasskeySignIn,
} from '../services/passkeys.js';
import { afterPassword } from '../services/signIn.js';
import { authRateLimit, operationRoute, type OperationName, type OperationRequest } from './operation.js';

const NOT_ALLOWED = { resultCode: 'NOT_ALLOWED' } as const;

/** The request's live session, if any. */
async function sessionOf(ctx: AppContext, req: FastifyRequest) {
  return (await ctx.sessions.current(req)) ?? undefined;
}

/** The session that may add a passkey: at most 10 minutes old, of an account without single sign-on. */
async function enrollingSession(ctx: AppContext, req: FastifyRequest) {
  const current = await sessionOf(ctx, req);
  return current && current.user.sso_state === 'NONE' && (await sessionIsFresh(ctx, current.sessionId)) ? current : undefined;
}

type Session = NonNullable<Awaited<ReturnType<typeof sessionOf>>>;

/** A route of the signed-in visitor: never cached, and `refused` when `find` gives no session. */
function sessionRoute<N extends OperationName>(
  app: FastifyInstance,
  operation: N,
  find: (ctx: AppContext, req: FastifyRequest) => Promise<Session | undefined>,
  refused: object,
  handle: (current: Session, req: OperationRequest<N>, reply: FastifyReply) => Promise<unknown>,
  options?: RouteShorthandOptions,
): void {
  operationRoute(
    app,
    operation,
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      const current = await find(app.fd, req);
      return current ? handle(current, req, reply) : refused;
    },
    options,
  );
}

const passkeys: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };

  operationRoute(
    app,
    'passkeyLoginOptions',
    async (req, reply) => {
      reply.header('Cache-Control', 'no-store');
      return { resultCode: 'SUCCESS', options: await passkeyLoginOptions(ctx, req, reply, req.body.email) };
    },
    limited,
  );

  operationRoute(
    app,
    'passkeyLogin',
    async (req, reply) => {
      const { credentialJson, staySignedIn, returnTo } = req.body;
      // Refused tries are counted per credential and per account, never per address (services/passkeyBudget.ts).
      const result = await verifyPasskeySignIn(ctx, req, credentialJson);
      if (!result.ok && result.reason === 'LIMITED') return rateLimited(reply, result.retryAfter, 'Too many refused sign-ins with this passkey');
      // Removed (or never ours): the browser may tell its password manager to forget it (issue 37).
      if (!result.ok && result.reason === 'UNKNOWN_CREDENTIAL')
        return { resultCode: 'UNKNOWN_CREDENTIAL', passkeySignals: unknownCredentialSignals(ctx, req, result.credentialId) };
      if (!result.ok) return { resultCode: result.reason === 'MALFORMED_CREDENTIAL' ? 'MALFORMED_CREDENTIAL' : 'AUTHENTICATION_FAILURE' };
      // A passkey verifies its user: it is both factors. The account's state decides the rest, as after a password.
      const answer = await afterPassword(ctx, req, reply, result.user, {
        staySignedIn: staySignedIn === true,
        returnTo,
        secondFactorDone: true,
        passkeyId: result.passkeyId,
      });
      if (answer.resultCode !== 'SUCCESS') return answer;
      return { ...(await withPasskeyStep(ctx, req, reply, result.user, answer)), passkeySignals: await signedInSignals(ctx, req, result.user) };
    },
    limited,
  );

  // Right after a password reset in this browser, the account's passkeys are shown first (REVIEW).
  sessionRoute(app, 'passkeyOffer', sessionOf, { resultCode: 'NO_OFFER' }, async (current, req, reply) => ({
    resultCode: (await reviewPending(ctx, req, reply, current.user.id)) ? 'REVIEW' : await passkeyOfferFor(ctx, current.user, current.sessionId),
    userType: current.user.user_type,
  }));

  sessionRoute(app, 'passkeyOfferDecline', sessionOf, NOT_ALLOWED, async (current, req) => {
    await declinePasskeyOffer(ctx, current.user.id, req.body.forever);
    return { resultCode: 'SUCCESS', userType: current.user.user_type };
  });

  sessionRoute(
    app,
    'passkeyRegisterOptions',
    enrollingSession,
    NOT_ALLOWED,
    async (current, req, reply) => ({
      resultCode: 'SUCCESS',
      options: await passkeyRegistrationOptions(ctx, req, reply, current.user, current.sessionId, req.body?.conditional === true),
    }),
    limited,
  );

  sessionRoute(
    app,
    'passkeyRegister',
    enrollingSession,
    NOT_ALLOWED,
    async (current, req) => {
      const added = await addPasskey(ctx, req, current.user, current.sessionId, req.body.credentialJson);
      if (!added) return { resultCode: 'MALFORMED_CREDENTIAL' };
      await notifyPasskeyAdded(ctx, ctx.data, req, current.user, notMeLink(ctx, req, current.user.id, added.credentialId));
      return { resultCode: 'SUCCESS', userType: current.user.user_type };
    },
    limited,
  );
};
export default passkeys;
