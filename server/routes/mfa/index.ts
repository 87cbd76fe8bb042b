/**
 * Second factor at sign-in (signIn.ts: mfa-login, u2f-login, switch-mfa), in the Verify MFA modal
 * (session.ts), and MFA set-up (setup.ts: config-*, login/totp, login/smsotp, change-phone;
 * securityKey.ts: config-webauthn-*); the Duo realtime channel is routes/duoChannel.ts. Every route
 * has the sign-in rate limit. See docs/mfa.md.
 */
import type { FastifyPluginAsync } from 'fastify';
import { authRateLimit } from '../operation.js';
import { securityKeyRoutes } from './securityKey.js';
import { sessionRoutes } from './session.js';
import { setupRoutes } from './setup.js';
import { signInRoutes } from './signIn.js';

const mfa: FastifyPluginAsync = async (app) => {
  const limited = { config: authRateLimit(app) };
  signInRoutes(app, limited);
  sessionRoutes(app, limited);
  setupRoutes(app, limited);
  securityKeyRoutes(app, limited);
};
export default mfa;
