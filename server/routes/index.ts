/**
 * The one list of route plugins. To add an area: write server/routes/<area>.ts exporting a
 * FastifyPluginAsync (use operationRoute() for contract operations) and add it below.
 * Contract operations without a route answer 501 automatically (notImplemented.ts).
 */
import type { FastifyPluginAsync } from 'fastify';
import account from './account.js';
import accountRecovery from './accountRecovery.js';
import activation from './activation.js';
import appConfig from './appConfig.js';
import botCheck from './botCheck.js';
import branding from './branding.js';
import dev from './dev.js';
import devDuo from './devDuo.js';
import devHelpcenter from './devHelpcenter.js';
import devOidc from './devOidc.js';
import devSamlIdp from './devSamlIdp.js';
import devStudio from './studio/index.js';
import duoCallback from './duoCallback.js';
import duoChannel from './duoChannel.js';
import events from './events.js';
import expiredAccount from './expiredAccount.js';
import health from './health.js';
import helpcenter from './helpcenter.js';
import mfa from './mfa/index.js';
import openapi from './openapi.js';
import passkeyReview from './passkeyReview.js';
import passkeys from './passkeys.js';
import passwordReset from './passwordReset.js';
import platform from './platform.js';
import registration from './registration.js';
import singleSignOn from './singleSignOn.js';
import wellKnown from './wellKnown.js';

/** Always registered. */
export const apiRoutes: FastifyPluginAsync[] = [
  health,
  appConfig,
  botCheck,
  branding,
  account,
  registration,
  activation,
  passwordReset,
  expiredAccount,
  mfa,
  passkeys,
  passkeyReview,
  accountRecovery,
  duoChannel,
  duoCallback,
  helpcenter,
  platform,
  singleSignOn,
  events,
  openapi,
  wellKnown,
];

/** Registered only in demo mode (dev tools on: `npm start`, --demo or DEV_TOOLS=1): /dev/*. */
export const devRoutes: FastifyPluginAsync[] = [dev, devHelpcenter, devDuo, devStudio, devSamlIdp, devOidc];
