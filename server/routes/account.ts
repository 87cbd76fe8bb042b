/**
 * Sign-in walking skeleton: authentication-state, login, saml-init, logout, session.
 * MFA, registration, reset and activation routes live in their own files (see routes/index.ts).
 */
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { sessionPasskey } from '../db/passkeys.js';
import { apiError, rateLimited } from '../errors.js';
import { afterPassword, botCheckPasses, countSignIn, safeReturnTo } from '../services/signIn.js';
import { bindBrowser } from '../services/browserBinding.js';
import { BOT_CHECK_AFTER_FAILURES } from '../services/attempts.js';
import { acceptedSignalsOf } from '../services/passkeySignals.js';
import { withPasskeyStep } from '../services/passkeyStep.js';
import { publicBase } from '../services/publicUrl.js';
import { signOutEverywhere } from '../services/revocation.js';
import { browserTrusted } from '../services/trustedDevices.js';
import { accountOf, enrolments, findUserByEmail, normalizeEmail } from '../services/users.js';
import { getConnection } from '../sso/connections.js';
import { IDP_REQUEST_PURPOSE, IDP_REQUEST_TTL_MS } from './idpRequest.js';
import { authRateLimit, operationRoute } from './operation.js';
import { ssoHost } from './singleSignOn.js';
import { ssoStart } from './sso.js';

export { IDP_REQUEST_PURPOSE, IDP_REQUEST_TTL_MS };

function authenticationStateRoute(app: FastifyInstance): void {
  const ctx = app.fd;
  // A probe: it reads the counters and never counts (300 of them used to lock the account out).
  operationRoute(
    app,
    'authenticationState',
    async (req) => {
      const { email, user } = await accountOf(ctx.data, req.body.email);
      const recaptchaRequired = await ctx.attempts.botCheckRequired('login', email, user?.bot_check_always_fails === 1);
      if (user?.sso_state === 'CONFIGURED') return { authState: 'SSO', idpName: user.sso_idp_name ?? 'SSO', recaptchaRequired };
      if (user?.sso_state === 'NOT_CONFIGURED') return { authState: 'SSO_NOT_CONFIGURED', recaptchaRequired };
      return { authState: 'NONE', recaptchaRequired };
    },
    { config: authRateLimit(app) },
  );
}

function loginRoute(app: FastifyInstance): void {
  const ctx = app.fd;
  operationRoute(
    app,
    'login',
    async (req, reply) => {
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
      if (user.password_hash && ctx.passwords.needsRehash(user.password_hash)) {
        // Legacy scrypt (or a lower argon2 cost): replaced now that the password is known (hashed before the statement).
        const rehashed = await ctx.passwords.hash(body.password);
        await ctx.data.run('UPDATE users SET password_hash = ? WHERE id = ? AND password_hash = ?', [rehashed, user.id, user.password_hash]);
      }
      // A browser trusted at /mfa ("Don't ask again on this device") skips the second factor.
      const secondFactorDone = user.mfa_required ? await browserTrusted(ctx, req, reply, user) : false;
      const answer = await afterPassword(ctx, req, reply, user, { staySignedIn: body.staySignedIn === true, returnTo: body.returnTo, secondFactorDone });
      // The passkey step comes with the answer (issue 37): no screen to load to learn there is none.
      return countSignIn(ctx, await withPasskeyStep(ctx, req, reply, user, answer));
    },
    { config: authRateLimit(app) },
  );
}

function samlInitRoute(app: FastifyInstance): void {
  const ctx = app.fd;
  operationRoute(
    app,
    'samlInit',
    async (req, reply) => {
      const body = req.body;
      const { email, user } = await accountOf(ctx.data, body.email);
      const gate = await botCheckPasses(ctx, 'login', 'samlInit', email, user, body.recaptchaToken);
      if (gate.required && !gate.passed) return { resultCode: 'HUMAN_VERIFICATION_FAILED', recaptchaRequired: true };
      if (!user || user.sso_state !== 'CONFIGURED') return { resultCode: 'SSO_NOT_CONFIGURED' };
      // A tenant connection (server/sso): the IdP's URL with a signed SAMLRequest, or the OpenID provider's authorize URL.
      const connectionId = (await ctx.data.get<{ id: number | null }>('SELECT sso_connection_id AS id FROM users WHERE id = ?', [user.id]))?.id ?? null;
      if (connectionId !== null) {
        const connection = await getConnection(ctx.data, connectionId, { seal: ctx.seal, unseal: ctx.unseal });
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
    },
    { config: authRateLimit(app) },
  );
}

function logoutRoute(app: FastifyInstance): void {
  const ctx = app.fd;
  operationRoute(app, 'logout', async (req, reply) => {
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
  });
}

function sessionRoute(app: FastifyInstance): void {
  const ctx = app.fd;
  operationRoute(app, 'session', async (req, reply) => {
    reply.header('Cache-Control', 'no-store');
    const current = await ctx.sessions.current(req);
    if (!current) return apiError(reply, 401, 'UNAUTHENTICATED', 'No valid session');
    const u = current.user;
    let features: string[] = [];
    try {
      const parsed: unknown = JSON.parse(u.features);
      if (Array.isArray(parsed)) features = parsed.filter((f): f is string => typeof f === 'string');
    } catch {
      /* keep [] */
    }
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
      features,
      mfaMethods: [...new Set((await enrolments(ctx.data, u.id)).map((e) => e.type))],
    };
  });
}

const account: FastifyPluginAsync = async (app) => {
  authenticationStateRoute(app);
  loginRoute(app);
  samlInitRoute(app);
  logoutRoute(app);
  sessionRoute(app);
};
export default account;
