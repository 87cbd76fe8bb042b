/**
 * buildApp(options): the whole reference server as a Fastify instance, not listening
 * (tests use app.inject; main.ts listens).
 */
import crypto from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createValidatorCompiler, loadContract } from './contract.js';
import type { AppContext, ServerConfig } from './context.js';
import { openDb, type Db } from './db/index.js';
import { seedDemoTenant } from './db/seed.js';
import { installErrorHandler } from './errors.js';
import { apiRoutes, devRoutes } from './routes/index.js';
import notImplemented from './routes/notImplemented.js';
import { createAttempts } from './services/attempts.js';
import { purgeExpired } from './services/housekeeping.js';
import { createBotCheck } from './services/botCheck.js';
import { createOutbox } from './services/outbox.js';
import { createPasswordService } from './services/passwords.js';
import { createSessions } from './services/sessions.js';
import { createSignedTokens } from './services/signedTokens.js';
import { createAccountLimiter, registerAccountLimit, type AccountLimitOptions } from './security/accountLimit.js';
import { registerCsrfProtection } from './security/csrf.js';
import { originOf, registerSecurityHeaders } from './security/headers.js';
import { withRedaction } from './security/logging.js';
import { registerSpa } from './spa.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const BODY_LIMIT = 16 * 1024;

export interface BuildAppOptions {
  /** SQLite file, or ':memory:' (default ':memory:'; main.ts passes DB_PATH). */
  dbPath?: string;
  /** An already-open database instead of dbPath (migrated by the caller). */
  db?: Db;
  /** NODE_ENV (default process.env.NODE_ENV ?? 'development'); 'production' turns off /dev/* and the seed. */
  nodeEnv?: string;
  /** APP_ENV (default process.env.APP_ENV); 'production' or anything else = 'development'. */
  appEnv?: string;
  /** Port used in the demo ACCOUNT_MOVED url (default process.env.PORT ?? 8080). */
  publicPort?: number;
  /** Built SPA directory (default <repo>/dist/app). */
  staticDir?: string;
  /** scrypt N for new password hashes (default 16384; tests may use 1024). */
  scryptCost?: number;
  /** Seed the demo tenant into an empty database (default: when dev tools are on). */
  seed?: boolean;
  /** HMAC secret of signed tokens (default env BOT_CHECK_SECRET, else random per process). */
  tokenSecret?: string;
  /** Turns the bot check provider into recaptcha-enterprise in /ws/app-config (default env RECAPTCHA_SITE_KEY). */
  recaptchaSiteKey?: string;
  /** Open self-registration at /register (default: on unless env SELF_REGISTRATION=off); invite links always work. */
  selfRegistration?: boolean;
  /** Fastify logger option (default false). */
  logger?: FastifyServerOptions['logger'];
  /** Fastify trustProxy (default false). */
  trustProxy?: boolean;
  /** Per-IP rate limit of the sign-in endpoints (default 300 per minute per route); false turns it off. */
  rateLimit?: false | { max?: number; timeWindow?: string };
  /** Per-account limit of the sign-in endpoints (default 60 calls per 5 minutes per email or token); false turns it off. */
  accountRateLimit?: false | AccountLimitOptions;
  /** Content-Security-Policy of the SPA's HTML (default: security/headers.ts contentSecurityPolicy(); false: none). */
  contentSecurityPolicy?: string | false;
  /** Extra origins forms may post to (default: the origins of HELPCENTER_HOST, HELPCENTER_GOVERNMENT_HOST, IDP_URL). */
  formActionOrigins?: string[];
  /** Error-reporting (Sentry) DSN given to the browser by /ws/app-config (default env SENTRY_DSN; unset: reporting off). */
  errorReportingDsn?: string;
  /** Clock (default Date.now). */
  now?: () => number;
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const nodeEnv = options.nodeEnv ?? process.env.NODE_ENV ?? 'development';
  const config: ServerConfig = {
    nodeEnv,
    appEnv: (options.appEnv ?? process.env.APP_ENV) === 'production' ? 'production' : 'development',
    devTools: nodeEnv !== 'production',
    publicPort: options.publicPort ?? (Number(process.env.PORT) || 8080),
    staticDir: path.resolve(options.staticDir ?? path.join(ROOT, 'dist/app')),
    recaptchaSiteKey: options.recaptchaSiteKey ?? (process.env.RECAPTCHA_SITE_KEY || undefined),
    selfRegistrationEnabled: options.selfRegistration ?? process.env.SELF_REGISTRATION !== 'off',
    errorReportingDsn: options.errorReportingDsn ?? (process.env.SENTRY_DSN || undefined),
    authRateLimit: options.rateLimit === false ? false : { max: options.rateLimit?.max ?? 300, timeWindow: options.rateLimit?.timeWindow ?? '1 minute' },
  };
  const now = options.now ?? Date.now;
  const db = options.db ?? openDb(options.dbPath ?? ':memory:');
  const passwords = createPasswordService(options.scryptCost ?? 16384);
  const tokens = createSignedTokens(db, options.tokenSecret ?? process.env.BOT_CHECK_SECRET ?? crypto.randomBytes(32).toString('hex'), now);
  const ctx: AppContext = {
    config,
    db,
    contract: loadContract(),
    now,
    passwords,
    sessions: createSessions(db, now),
    tokens,
    botCheck: createBotCheck(tokens),
    outbox: createOutbox(db, now),
    attempts: createAttempts(db, now),
    reseed: () => seedDemoTenant(db, passwords, now),
  };

  const shouldSeed = options.seed ?? config.devTools;
  if (shouldSeed) {
    const { n } = db.prepare('SELECT count(*) AS n FROM users').get() as { n: number };
    if (n === 0) await ctx.reseed();
  }

  const app = Fastify({
    logger: withRedaction(options.logger ?? false),
    bodyLimit: BODY_LIMIT,
    trustProxy: options.trustProxy ?? false,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 300 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  // The API takes JSON only (form posts are accepted inside the /dev plugin alone).
  app.removeContentTypeParser('text/plain');
  app.decorate('fd', ctx);
  installErrorHandler(app);
  purgeExpired(db, now());
  const housekeeping = setInterval(() => purgeExpired(db, now()), 60 * 60 * 1000);
  housekeeping.unref();
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    if (!options.db) db.close();
  });
  const dsnOrigin = originOf(config.errorReportingDsn);
  registerSecurityHeaders(app, {
    recaptcha: Boolean(config.recaptchaSiteKey),
    contentSecurityPolicy: options.contentSecurityPolicy,
    formActionOrigins: options.formActionOrigins ?? [process.env.HELPCENTER_HOST, process.env.HELPCENTER_GOVERNMENT_HOST, process.env.IDP_URL]
      .map(originOf).filter((o): o is string => o !== undefined),
    connectOrigins: dsnOrigin ? [dsnOrigin] : [],
  });
  registerCsrfProtection(app);
  if (options.accountRateLimit !== false) {
    const limiter = createAccountLimiter(now, options.accountRateLimit);
    registerAccountLimit(app, limiter);
    const reseed = ctx.reseed;
    ctx.reseed = async () => {
      limiter.reset();
      await reseed();
    };
  }

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: false,
    errorResponseBuilder: (_req, c) => ({ statusCode: c.statusCode, error: 'RATE_LIMITED', message: `Too many requests; retry in ${c.after}` }),
  });
  // reply.sendFile for the SPA (no automatic routes: spa.ts decides what is served); .br/.gz siblings
  // written by the build are sent to clients that accept them.
  await app.register(fastifyStatic, { root: config.staticDir, serve: false, preCompressed: true, suppressWarning: true } as Parameters<typeof fastifyStatic>[1]);

  for (const plugin of apiRoutes) await app.register(plugin);
  if (config.devTools) for (const plugin of devRoutes) await app.register(plugin);
  await app.register(notImplemented);
  registerSpa(app, config.staticDir);
  return app;
}
