/**
 * Sign-in walking skeleton: authentication-state, login, saml-init, logout, session.
 * MFA, registration, reset and activation routes live in their own files (see routes/index.ts).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { findUserByEmail, normalizeEmail } from '../db/accounts.js';
import { enrolments } from '../db/mfa.js';
import { sessionPasskey } from '../db/sessions.js';
import { apiError, rateLimited } from '../errors.js';
import { afterPassword, botCheckPasses, countSignIn, safeReturnTo } from '../services/signIn.js';
import { bindBrowser } from '../services/browserBinding.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { acceptedSignalsOf } from '../services/passkeySignals.js';
import { withPasskeyStep } from '../services/passkeyStep.js';
import { publicBase } from '../services/publicUrl.js';
import { signOutEverywhere } from '../services/revocation.js';
import { browserTrusted } from '../services/trustedDevices.js';
import { accountOf, upgradePasswordHash } from '../services/users.js';
import { getConnection } from '../sso/connections.js';
import { IDP_REQUEST_PURPOSE, IDP_REQUEST_TTL_MS } from './idpRequest.js';
import { authRateLimit, operationRoute, type OperationRequest } from './operation.js';
import { ssoHost } from './singleSignOn.js';
import { ssoStart } from './sso.js';

export { IDP_REQUEST_PURPOSE, IDP_REQUEST_TTL_MS };

// A probe: it reads the counters and never counts (300 of them used to lock the account out).
async function authenticationState(ctx: AppContext, req: OperationRequest<'authenticationState'>) {
  const { email, user } = await accountOf(ctx.data, req.body.email);
  const recaptchaRequired = await ctx.attempts.botCheckRequired('login', email, user?.bot_check_always_fails === 1);
  if (user?.sso_state === 'CONFIGURED') return { authState: 'SSO', idpName: user.sso_idp_name ?? 'SSO', recaptchaRequired };
  if (user?.sso_state === 'NOT_CONFIGURED') return { authState: 'SSO_NOT_CONFIGURED', recaptchaRequired };
  return { authState: 'NONE', recaptchaRequired };
}

async function login(ctx: AppContext, req: OperationRequest<'login'>, reply: FastifyReply) {
  const body = req.body;
  const email = normalizeEmail(body.email);
  if (!email) return apiError(reply, 400, 'EMPTY_FIELD', 'Email field can not be empty', 'email');
  if (!body.password) return apiError(reply, 400, 'EMPTY_FIELD', 'Password field can not be empty', 'password');
  const user = await findUserByEmail(ctx.data, email);

  // The attempt is counted before the password is checked, atomically with the decision (services/attempts.ts).
  const check = await botCheckPasses(ctx, 'login', 'login', email, user, body.recaptchaToken);
  const attempt = await ctx.attempts.reserve('login', email, req.ip, check.passed, user?.bot_check_always_fails === 1);
  if (!attempt.ok && attempt.reason === 'LOCKED') {
    countSignIn(ctx, 'LOCKED');
    return rateLimited(reply, attempt.retryAfter, 'Too many failed sign-ins for this account');
  }
  if (!attempt.ok) return countSignIn(ctx, { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true });

  const ok = await ctx.passwords.verify(body.password, user?.password_hash);
  if (!ok || !user) {
    return countSignIn(ctx, {
      resultCode: 'AUTHENTICATION_FAILURE',
      ...(attempt.failures >= BOT_CHECK_AFTER_FAILURES || check.required ? { recaptchaRequired: true } : {}),
    });
  }
  await ctx.attempts.succeeded('login', email, req.ip);
  await upgradePasswordHash(ctx, user, body.password);
  // A browser trusted at /mfa ("Don't ask again on this device") skips the second factor.
  const secondFactorDone = user.mfa_required ? await browserTrusted(ctx, req, reply, user) : false;
  const answer = await afterPassword(ctx, req, reply, user, { staySignedIn: body.staySignedIn === true, returnTo: body.returnTo, secondFactorDone });
  // The passkey step comes with the answer (issue 37): no screen to load to learn there is none.
  return countSignIn(ctx, await withPasskeyStep(ctx, req, reply, user, answer));
}

async function samlInit(ctx: AppContext, req: OperationRequest<'samlInit'>, reply: FastifyReply) {
  const body = req.body;
  const { email, user } = await accountOf(ctx.data, body.email);
  const gate = await botCheckPasses(ctx, 'login', 'samlInit', email, user, body.recaptchaToken);
  if (gate.required && !gate.passed) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
  if (!user || user.sso_state !== 'CONFIGURED') return { resultCode: 'SSO_NOT_CONFIGURED' };
  // A tenant connection (server/sso): the IdP's URL with a signed SAMLRequest, or the OpenID provider's authorize URL.
  if (user.sso_connection_id !== null) {
    const connection = await getConnection(ctx.data, user.sso_connection_id, { seal: ctx.seal, unseal: ctx.unseal });
    if (!connection?.enabled) return { resultCode: 'SSO_NOT_CONFIGURED' };
    const started = await ssoStart(
      ssoHost(ctx, (line) => req.log.warn(line)),
      connection,
      req,
      reply,
      {
        staySignedIn: body.staySignedIn === true,
        returnTo: safeReturnTo(body.returnTo),
        loginHint: user.email,
      },
    );
    return started.ok ? { url: started.url } : { resultCode: 'SSO_NOT_CONFIGURED' };
  }
  // Without a connection only the demo tenant's IdP (/dev/idp, dev tools) can answer.
  if (!ctx.config.devTools) return { resultCode: 'SSO_NOT_CONFIGURED' };
  // The request signs the user in at the IdP's return: bound to this browser like every such token.
  const request = ctx.tokens.sign(IDP_REQUEST_PURPOSE, IDP_REQUEST_TTL_MS, {
    uid: user.id,
    bh: bindBrowser(ctx, req, reply),
    ssi: body.staySignedIn === true,
    ...(safeReturnTo(body.returnTo) ? { rt: safeReturnTo(body.returnTo) } : {}),
  });
  return { url: `/dev/idp?request=${encodeURIComponent(request)}` };
}

async function logout(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  const { sessions } = (req.query ?? {}) as { sessions?: 'all' };
  const all = sessions === 'all';
  // The passkey this session signed in with is the one "everywhere" keeps: whoever asks holds it.
  const asking = all ? await ctx.sessions.current(req) : null;
  const keepPasskey = asking ? await sessionPasskey(ctx.data, asking.sessionId) : null;
  const userId = await ctx.sessions.end(req, reply, all);
  reply.header('Cache-Control', 'no-store');
  if (!all || userId === undefined) return { ok: true };
  // "Sign out everywhere" also ends every token and code that could act for the account, and its other passkeys;
  // the browser that asked is told which still sign in (its password manager hides the others: issue 37).
  await signOutEverywhere(ctx, userId, keepPasskey);
  const passkeySignals = await acceptedSignalsOf(ctx, req, userId);
  return passkeySignals ? { ok: true, passkeySignals } : { ok: true };
}

/** The session's feature flags (a JSON list on the account; anything else: none). */
function featuresOf(stored: string): string[] {
  try {
    const parsed: unknown = JSON.parse(stored);
    return Array.isArray(parsed) ? parsed.filter((f): f is string => typeof f === 'string') : [];
  } catch {
    return [];
  }
}

async function session(ctx: AppContext, req: FastifyRequest, reply: FastifyReply) {
  reply.header('Cache-Control', 'no-store');
  const current = await ctx.sessions.current(req);
  if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
  const u = current.user;
  return {
    user: {
      email: u.email,
      ...(u.first_name ? { firstName: u.first_name } : {}),
      ...(u.last_name ? { lastName: u.last_name } : {}),
      id: u.id,
      uid: u.uid,
      entityType: u.user_type,
      ...(u.client_id !== null ? { clientId: u.client_id } : {}),
      ...(u.organization_id !== null ? { organizationId: u.organization_id } : {}),
      sysadmin: u.sysadmin === 1,
    },
    userType: u.user_type,
    userSite: publicBase(ctx, req),
    features: featuresOf(u.features),
    mfaMethods: [...new Set((await enrolments(ctx.data, u.id)).map((e) => e.type))],
  };
}

const account: FastifyPluginAsync = async (app) => {
  const ctx = app.fd;
  const limited = { config: authRateLimit(app) };
  operationRoute(app, 'authenticationState', (req) => authenticationState(ctx, req), limited);
  operationRoute(app, 'login', (req, reply) => login(ctx, req, reply), limited);
  operationRoute(app, 'samlInit', (req, reply) => samlInit(ctx, req, reply), limited);
  operationRoute(app, 'logout', (req, reply) => logout(ctx, req, reply));
  operationRoute(app, 'session', (req, reply) => session(ctx, req, reply));
};
export default account;
