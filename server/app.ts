/**
 * buildApp(options): the whole reference server as a Fastify instance, not listening
 * (tests use app.inject; main.ts listens).
 */
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ConfigError, parseOrigins, parsePublicUrl, parseTrustProxy } from './config.js';
import { createValidatorCompiler, loadContract } from './contract.js';
import type { AppContext, ServerConfig } from './context.js';
import type { Database } from './db/data.js';
import { openDb, type Db } from './db/index.js';
import { wrapSqlite } from './db/sqlite.js';
import { seedDemoTenant } from './db/seed.js';
import { installErrorHandler } from './errors.js';
import { createMetrics, registerRequestMetrics } from './ops/metrics.js';
import { apiRoutes, devRoutes } from './routes/index.js';
import notImplemented from './routes/notImplemented.js';
import { createAttempts } from './services/attempts.js';
import { purgeExpired } from './services/housekeeping.js';
import { altchaProvider, createBotCheck, recaptchaEnterpriseProvider, type BotCheckProvider } from './services/botCheck.js';
import { createLimits, LIMITS } from './services/limits.js';
import { encryptLegacySecrets } from './services/mfa.js';
import { createOutbox } from './services/outbox.js';
import { createPasswordService, type Argon2Cost } from './services/passwords.js';
import { createSessions } from './services/sessions.js';
import { createSignedTokens } from './services/signedTokens.js';
import { registerCsrfProtection } from './security/csrf.js';
import { originOf, registerSecurityHeaders } from './security/headers.js';
import { createHostAllowList, registerHostAllowList } from './security/hosts.js';
import { secureRequest } from './services/publicUrl.js';
import { withRedaction } from './security/logging.js';
import { sqliteRateLimitStore } from './security/rateLimitStore.js';
import { decrypt, encrypt, loadSecrets, type Secrets } from './security/secrets.js';
import { registerSpa } from './spa.js';
import { ROOT } from './paths.js';

export const BODY_LIMIT = 16 * 1024;

export interface RecaptchaConfig {
  siteKey: string;
  projectId: string;
  apiKey: string;
  /** Lowest acceptable score (default 0.5). */
  minScore?: number;
  /** Assessment API base URL (default https://recaptchaenterprise.googleapis.com). */
  apiBase?: string;
}

export interface BuildAppOptions {
  /** SQLite file, or ':memory:' (default ':memory:'; main.ts passes DB_PATH). */
  dbPath?: string;
  /** An already-open database instead of dbPath (migrated by the caller). */
  db?: Db;
  /** NODE_ENV (default process.env.NODE_ENV ?? 'development'); reported only (dev tools have their own switch). */
  nodeEnv?: string;
  /** APP_ENV (default process.env.APP_ENV); 'production' or anything else = 'development'. */
  appEnv?: string;
  /** /dev/*, the demo seed and demo secrets (default: env DEV_TOOLS=1; main.ts decides, see config.ts devToolsWanted). */
  devTools?: boolean;
  /** Port used in the demo ACCOUNT_MOVED url and branding URLs (default process.env.PORT ?? 8080). */
  publicPort?: number;
  /** Base URL of links in emails (default env PUBLIC_URL; with dev tools http://localhost:{publicPort}; required otherwise). */
  publicUrl?: string;
  /** Built SPA directory (default <repo>/dist/app). */
  staticDir?: string;
  /** argon2id cost of new password hashes (default ARGON2_COST; tests use less). */
  passwordCost?: Argon2Cost;
  /** Seed the demo tenant into an empty database (default: when dev tools are on). */
  seed?: boolean;
  /** Master secret (default env APP_SECRET; required without dev tools). */
  appSecret?: string;
  /** Secret of help-centre / academy tokens (default env HELPCENTER_JWT_SECRET). */
  helpCenterJwtSecret?: string;
  /** reCAPTCHA Enterprise instead of the ALTCHA proof of work (default from env RECAPTCHA_*). */
  recaptcha?: RecaptchaConfig;
  /** Range of the ALTCHA answer counter (default ALTCHA_COUNTER; tests that solve many challenges use less). */
  botCheckWork?: { min: number; max: number };
  /** Open self-registration at /register (default: on unless env SELF_REGISTRATION=off); invite links always work. */
  selfRegistration?: boolean;
  /** Fastify logger option (default false). */
  logger?: FastifyServerOptions['logger'];
  /** Addresses / CIDR ranges of trusted proxies (default env TRUST_PROXY; none). */
  trustProxy?: string[] | false;
  /** Per-address limit of the sign-in endpoints, all routes together (default LIMITS.callsPerAddressPerMinute per minute); false turns it off. */
  rateLimit?: false | { max?: number; timeWindowMs?: number };
  /** Content-Security-Policy of the SPA's HTML (default: security/headers.ts contentSecurityPolicy(); false: none). */
  contentSecurityPolicy?: string | false;
  /** Extra origins forms may post to (default: the origins of HELPCENTER_HOST, HELPCENTER_GOVERNMENT_HOST, IDP_URL). */
  formActionOrigins?: string[];
  /** Error-reporting (Sentry) DSN given to the browser by /ws/app-config (default env SENTRY_DSN; unset: reporting off). */
  errorReportingDsn?: string;
  /** Origins academy single-sign-on links may point to (default env ACADEMY_HOSTS, comma-separated). */
  academyHosts?: string[];
  /** Host names served besides localhost, 127.0.0.1, ::1, PUBLIC_URL's and the branded hosts (default env ALLOWED_HOSTS, comma-separated); others get 421. */
  allowedHosts?: string[];
  /** Clock (default Date.now). */
  now?: () => number;
  /** Bearer token of GET /metrics (default env METRICS_TOKEN; unset: open). */
  metricsToken?: string;
  /** Process metrics (CPU, memory, event loop, GC) in /metrics (default false; main.ts turns them on). */
  processMetrics?: boolean;
}

const env = (name: string): string | undefined => process.env[name] || undefined;

/** ALLOWED_HOSTS: comma-separated host names (no scheme, no port). */
function parseHostNames(value: string | undefined): string[] {
  const names = (value ?? '')
    .split(',')
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
  for (const name of names) {
    if (!/^[a-z0-9.-]+$|^[0-9a-f:]+$/.test(name)) throw new ConfigError(`ALLOWED_HOSTS takes host names such as signin.internal, not ${JSON.stringify(name)}.`);
  }
  return names;
}

/** reCAPTCHA from the environment: the site key alone is not enough (tokens must be verified server side). */
function recaptchaFromEnv(): RecaptchaConfig | undefined {
  const siteKey = env('RECAPTCHA_SITE_KEY');
  if (!siteKey) return undefined;
  const projectId = env('RECAPTCHA_PROJECT_ID');
  const apiKey = env('RECAPTCHA_API_KEY');
  if (!projectId || !apiKey) {
    throw new ConfigError(
      'RECAPTCHA_SITE_KEY needs RECAPTCHA_PROJECT_ID and RECAPTCHA_API_KEY: reCAPTCHA tokens are verified server side with the assessment API.',
    );
  }
  const minScore = env('RECAPTCHA_MIN_SCORE') === undefined ? undefined : Number(env('RECAPTCHA_MIN_SCORE'));
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1)) throw new ConfigError('RECAPTCHA_MIN_SCORE must be a number from 0 to 1.');
  return {
    siteKey,
    projectId,
    apiKey,
    ...(minScore !== undefined ? { minScore } : {}),
    ...(env('RECAPTCHA_API_URL') ? { apiBase: env('RECAPTCHA_API_URL') } : {}),
  };
}

export async function buildApp(options: BuildAppOptions = {}): Promise<FastifyInstance> {
  const nodeEnv = options.nodeEnv ?? process.env.NODE_ENV ?? 'development';
  const devTools = options.devTools ?? process.env.DEV_TOOLS === '1';
  const publicPort = options.publicPort ?? (Number(process.env.PORT) || 8080);
  const publicUrlSetting = options.publicUrl ?? env('PUBLIC_URL');
  if (publicUrlSetting === undefined && !devTools) {
    throw new ConfigError(
      'PUBLIC_URL is required outside demo mode: the base URL of links in emails and texts, e.g. PUBLIC_URL=https://signin.example.com (never taken from request headers). For the demo tenant run `npm start` (or add --demo).',
    );
  }
  const helpCenterHost = env('HELPCENTER_HOST');
  const helpCenterGovernmentHost = env('HELPCENTER_GOVERNMENT_HOST');
  const recaptcha = options.recaptcha ?? recaptchaFromEnv();
  const trustProxy = options.trustProxy ?? parseTrustProxy(process.env.TRUST_PROXY);
  const allowedHosts = options.allowedHosts ?? parseHostNames(process.env.ALLOWED_HOSTS);
  const rate = options.rateLimit;
  const config: ServerConfig = {
    nodeEnv,
    appEnv: (options.appEnv ?? process.env.APP_ENV) === 'production' ? 'production' : 'development',
    devTools,
    publicPort,
    publicUrl: parsePublicUrl(publicUrlSetting ?? `http://localhost:${publicPort}`),
    staticDir: path.resolve(options.staticDir ?? path.join(ROOT, 'dist/app')),
    selfRegistrationEnabled: options.selfRegistration ?? process.env.SELF_REGISTRATION !== 'off',
    errorReportingDsn: options.errorReportingDsn ?? env('SENTRY_DSN'),
    helpCenter: { ...(helpCenterHost ? { host: helpCenterHost } : {}), ...(helpCenterGovernmentHost ? { governmentHost: helpCenterGovernmentHost } : {}) },
    academyHosts: options.academyHosts ?? parseOrigins(process.env.ACADEMY_HOSTS, 'ACADEMY_HOSTS'),
    authRateLimit:
      rate === false ? false : { max: rate?.max ?? LIMITS.callsPerAddressPerMinute, timeWindow: rate?.timeWindowMs ?? LIMITS.window.calls, groupId: 'sign-in' },
    metricsToken: options.metricsToken ?? env('METRICS_TOKEN'),
  };
  const now = options.now ?? Date.now;
  const db = options.db ?? openDb(options.dbPath ?? ':memory:');
  // The async data layer over the same connection (readiness, metrics; the services move to it next).
  const data: Database = wrapSqlite(db, { owned: false, label: options.db ? undefined : (options.dbPath ?? ':memory:') });
  const metrics = createMetrics(data, { processMetrics: options.processMetrics ?? false });
  let secrets: Secrets;
  try {
    secrets = loadSecrets(db, {
      appSecret: options.appSecret ?? env('APP_SECRET'),
      helpCenterJwtSecret: options.helpCenterJwtSecret ?? env('HELPCENTER_JWT_SECRET'),
      helpCenterConfigured: Boolean(helpCenterHost || helpCenterGovernmentHost || config.academyHosts.length),
      demo: devTools,
    });
  } catch (error) {
    if (!options.db) db.close();
    throw error;
  }
  const seal = (plain: string) => encrypt(secrets.dataKey, plain);
  const unseal = (stored: string) => decrypt(secrets.dataKey, stored);
  encryptLegacySecrets(db, seal);
  const passwords = createPasswordService(options.passwordCost);
  const limits = createLimits(db, now);
  // Failures of the outbound verification are logged (the app's logger exists by the time a request comes).
  let app: FastifyInstance | undefined;
  const provider: BotCheckProvider = recaptcha
    ? recaptchaEnterpriseProvider({
        ...recaptcha,
        minScore: recaptcha.minScore ?? 0.5,
        apiBase: recaptcha.apiBase ?? 'https://recaptchaenterprise.googleapis.com',
        log: (message) => app?.log.warn(message),
      })
    : altchaProvider({ hmacKey: secrets.altchaKey, keySignatureKey: secrets.altchaKeySignatureKey }, now, options.botCheckWork);
  const ctx: AppContext = {
    config,
    db,
    data,
    metrics,
    contract: loadContract(),
    now,
    passwords,
    // Secure cookies on https and whenever the public URL is https (the context exists by the first request).
    sessions: createSessions(db, now, (req) => secureRequest(ctx, req)),
    tokens: createSignedTokens(db, secrets.tokenKey, now),
    botCheck: createBotCheck(db, provider, now),
    outbox: createOutbox(db, now),
    limits,
    attempts: createAttempts(limits, now),
    secrets,
    seal,
    unseal,
    reseed: async () => {
      await seedDemoTenant(db, passwords, { now, seal });
    },
  };

  if (options.seed ?? devTools) await seedDemoTenant(db, passwords, { now, seal, onlyIfEmpty: true });

  app = Fastify({
    logger: withRedaction(options.logger ?? false),
    bodyLimit: BODY_LIMIT,
    // Only the configured proxies' X-Forwarded-* headers are believed (proxy-addr), never any hop's.
    trustProxy: trustProxy === false ? false : trustProxy.join(','),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 300 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  });
  app.setValidatorCompiler(createValidatorCompiler());
  // The API takes JSON only (form posts are accepted inside the /dev plugin alone).
  app.removeContentTypeParser('text/plain');
  app.decorate('fd', ctx);
  installErrorHandler(app);
  registerRequestMetrics(app, metrics);
  purgeExpired(db, now());
  const housekeeping = setInterval(() => purgeExpired(db, now()), 60 * 60 * 1000);
  housekeeping.unref();
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
    if (!options.db) db.close();
  });
  // First of all: a request for a host this server does not answer for gets 421 (DNS rebinding).
  const hosts = createHostAllowList(ctx, allowedHosts);
  registerHostAllowList(app, hosts);
  const dsnOrigin = originOf(config.errorReportingDsn);
  registerSecurityHeaders(app, {
    // A branded host's https comes from the database; when it does not answer (/readyz says 503), the
    // configured PUBLIC_URL decides, so the answer still goes out with its headers instead of a 500.
    isSecure: (req) => {
      try {
        return secureRequest(ctx, req);
      } catch {
        return config.publicUrl.startsWith('https:');
      }
    },
    recaptcha: provider.name === 'recaptcha-enterprise',
    contentSecurityPolicy: options.contentSecurityPolicy,
    formActionOrigins:
      options.formActionOrigins ??
      [process.env.HELPCENTER_HOST, process.env.HELPCENTER_GOVERNMENT_HOST, process.env.IDP_URL].map(originOf).filter((o): o is string => o !== undefined),
    connectOrigins: dsnOrigin ? [dsnOrigin] : [],
  });
  registerCsrfProtection(app, hosts);

  await app.register(cookie);
  await app.register(rateLimit, {
    global: false,
    store: sqliteRateLimitStore(limits, now),
    enableDraftSpec: false,
    errorResponseBuilder: (_req, c) => ({ statusCode: c.statusCode, error: 'RATE_LIMITED', message: `Too many requests; retry in ${c.after}` }),
  });
  // reply.sendFile for the SPA (no automatic routes: spa.ts decides what is served); .br/.gz siblings
  // written by the build are sent to clients that accept them.
  await app.register(fastifyStatic, { root: config.staticDir, serve: false, preCompressed: true, suppressWarning: true } as Parameters<
    typeof fastifyStatic
  >[1]);

  for (const plugin of apiRoutes) await app.register(plugin);
  if (config.devTools) for (const plugin of devRoutes) await app.register(plugin);
  await app.register(notImplemented);
  registerSpa(app, config.staticDir);
  return app;
}
