/**
 * buildApp(options): the whole reference server as a Fastify instance, not listening
 * (tests use app.inject; main.ts listens).
 */
import path from 'node:path';
import cookie from '@fastify/cookie';
import fastifyStatic from '@fastify/static';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { ConfigError, parseAllowedHosts, parseOrigins, parsePublicUrl, parseTrustProxy, webauthnRpId, type AllowedHosts } from './config.js';
import { createValidatorCompiler, loadContract } from './contract.js';
import type { BuildAppOptions } from './app-options.js';
import type { AppContext, ServerConfig } from './context.js';
import type { Database } from './db/data.js';
import { openDatabase } from './db/open.js';
import { tracedDatabase } from './db/traced.js';
import { seedDemoTenant } from './db/seed.js';
import { demoSsoSeeder } from './sso/demoSeed.js';
import { createDelivery, type Delivery } from './delivery/index.js';
import { tenantDuo } from './duo/tenants.js';
import { deliveryFromEnv, duoFromEnv, env, recaptchaFromEnv } from './env/fromEnv.js';
import type { Http2SecureServer } from 'node:http2';
import { createDuoUniversal, DUO_CALLBACK_PATH } from './duo/universal.js';
import { installErrorHandler } from './errors.js';
import { createMetrics, registerRequestMetrics } from './ops/metrics.js';
import { metricsExposure } from './ops/metricsExposure.js';
import { createMetricsServer, metricsRoute } from './ops/metricsServer.js';
import { registerRequestLog, requestLogOptions } from './ops/requestLog.js';
import { registerRequestTracing, startTracing, type Tracing } from './ops/tracing.js';
import { apiRoutes, devRoutes } from './routes/index.js';
import notImplemented from './routes/notImplemented.js';
import { createAttempts } from './services/attempts.js';
import { scheduleFunnelRollUp } from './services/funnelRollup.js';
import { FUNNEL_RETENTION_DAYS_DEFAULT, purgeExpired } from './services/housekeeping.js';
import { createBrandingCache } from './services/branding.js';
import { altchaProvider, createBotCheck, recaptchaEnterpriseProvider, type BotCheckProvider } from './services/botCheck.js';
import { createLimits, LIMITS } from './services/limits.js';
import { DEFAULT_LANGUAGE } from './services/lists.js';
import { encryptLegacySecrets } from './services/mfa.js';
import { createOutbox } from './services/outbox.js';
import { createPasswordService } from './crypto/passwords.js';
import { createSessions } from './services/sessions.js';
import { createSignedTokens } from './services/signedTokens.js';
import { registerCsrfProtection } from './security/csrf.js';
import { originOf, registerPrivateCookieAnswers, registerSecurityHeaders } from './security/headers.js';
import { createHostAllowList, registerHostAllowList } from './security/hosts.js';
import { secureRequest } from './services/publicUrl.js';
import { withRedaction } from './security/logging.js';
import { registerNulGuard } from './security/nulGuard.js';
import { databaseRateLimitStore } from './security/rateLimitStore.js';
import { loadSecrets, sealerOf, type Secrets } from './security/secrets.js';
import { registerSpa } from './spa/serve.js';
import { ROOT } from './paths.js';

export const BODY_LIMIT = 16 * 1024;

export type { RecaptchaConfig } from './env/fromEnv.js';
export type { BuildAppOptions } from './app-options.js';

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
  const allowedHosts: AllowedHosts = Array.isArray(options.allowedHosts)
    ? { names: options.allowedHosts, ranges: [] }
    : (options.allowedHosts ?? parseAllowedHosts(process.env.ALLOWED_HOSTS));
  const metricsSettings = options.metrics ?? { token: env('METRICS_TOKEN'), port: env('METRICS_PORT') ? Number(env('METRICS_PORT')) : undefined };
  const rate = options.rateLimit;
  const publicUrl = parsePublicUrl(publicUrlSetting ?? `http://localhost:${publicPort}`);
  const config: ServerConfig = {
    nodeEnv,
    appEnv: (options.appEnv ?? process.env.APP_ENV) === 'production' ? 'production' : 'development',
    devTools,
    publicPort,
    publicUrl,
    webauthnRpId: webauthnRpId(options.webauthnRpId ?? env('WEBAUTHN_RP_ID'), publicUrl, devTools),
    staticDir: path.resolve(options.staticDir ?? path.join(ROOT, 'dist/app')),
    selfRegistrationEnabled: options.selfRegistration ?? process.env.SELF_REGISTRATION !== 'off',
    errorReportingDsn: options.errorReportingDsn ?? env('SENTRY_DSN'),
    helpCenter: { ...(helpCenterHost ? { host: helpCenterHost } : {}), ...(helpCenterGovernmentHost ? { governmentHost: helpCenterGovernmentHost } : {}) },
    academyHosts: options.academyHosts ?? parseOrigins(process.env.ACADEMY_HOSTS, 'ACADEMY_HOSTS'),
    pageRateLimit:
      options.pageRateLimit === false
        ? false
        : { max: options.pageRateLimit?.max ?? LIMITS.pagesPerAddressPerMinute, timeWindow: options.pageRateLimit?.timeWindowMs ?? LIMITS.window.calls },
    authRateLimit:
      rate === false ? false : { max: rate?.max ?? LIMITS.callsPerAddressPerMinute, timeWindow: rate?.timeWindowMs ?? LIMITS.window.calls, groupId: 'sign-in' },
    metrics: metricsExposure({ ...metricsSettings, devTools }),
    funnelRetentionDays: options.funnelRetentionDays ?? (Number(env('FUNNEL_RETENTION_DAYS')) || FUNNEL_RETENTION_DAYS_DEFAULT),
  };
  const now = options.now ?? Date.now;
  // The app exists by the time a pooled connection can fail while idle (a restarted PostgreSQL).
  let app: FastifyInstance | undefined;
  const owned = options.data === undefined;
  // Loaded before the database opens, so its statements are spans from the first request on.
  const tracing = await startTracing(options.otlpEndpoint ?? env('OTEL_EXPORTER_OTLP_ENDPOINT'));
  const opened =
    options.data ?? openOwnDatabase(options, (error) => app?.log.warn({ err: error }, 'database: an idle connection failed (the pool reconnects)'));
  const data = tracing.enabled ? tracedDatabase(opened, tracing) : opened;
  let ready = false;
  try {
    const ctx = await createContext(data, tracing, config, { ...options, ...(recaptcha ? { recaptcha } : {}) }, now, () => app);
    if (options.seed ?? devTools) await ctx.reseed({ onlyIfEmpty: true });
    await ctx.branding.refresh();
    app = await createServer(ctx, options, { trustProxy, allowedHosts, metricsToken: metricsSettings.token });
    if (config.metrics.mode === 'port') {
      const metricsServer = await createMetricsServer(ctx, { token: metricsSettings.token, logger: app.log.child({ listener: 'metrics' }) });
      ctx.metricsServer = metricsServer;
      app.addHook('onClose', async () => metricsServer.close());
    }
    // One delivery worker per instance; it finishes the message in hand before the database closes.
    ctx.delivery.start();
    app.addHook('onClose', async () => {
      await ctx.delivery.stop();
      if (owned) await data.close();
      // Last: the spans of everything above are exported.
      await tracing.shutdown();
    });
    ready = true;
    return app;
  } finally {
    if (!ready && owned) await data.close().catch(() => undefined);
    if (!ready) await tracing.shutdown();
  }
}

/** The database of dbPath or databaseUrl (when the caller passed none open). */
function openOwnDatabase(options: BuildAppOptions, onIdleError: (error: Error) => void): Database {
  return openDatabase(
    options.databaseUrl !== undefined
      ? { engine: 'postgres', url: options.databaseUrl, ...(options.databasePoolSize !== undefined ? { poolSize: options.databasePoolSize } : {}) }
      : { engine: 'sqlite', path: options.dbPath ?? ':memory:' },
    onIdleError,
  );
}

/** reCAPTCHA Enterprise when it is configured, else ALTCHA with the secrets' keys (the current and, during a rotation, the previous). */
function botCheckProvider(options: BuildAppOptions, secrets: Secrets, now: () => number, appOf: () => FastifyInstance | undefined): BotCheckProvider {
  const recaptcha = options.recaptcha;
  // Failures of the outbound verification are logged (the app's logger exists by the time a request comes).
  return recaptcha
    ? recaptchaEnterpriseProvider({
        ...recaptcha,
        minScore: recaptcha.minScore ?? 0.5,
        apiBase: recaptcha.apiBase ?? 'https://recaptchaenterprise.googleapis.com',
        log: (message) => appOf()?.log.warn(message),
      })
    : altchaProvider(
        [secrets, ...(secrets.previous ? [secrets.previous] : [])].map((k) => ({ hmacKey: k.altchaKey, keySignatureKey: k.altchaKeySignatureKey })),
        now,
        options.botCheckWork,
      );
}

/** The services on the data layer (migrated first unless the caller passed `data`), secrets loaded. */
async function createContext(
  data: Database,
  tracing: Tracing,
  config: ServerConfig,
  options: BuildAppOptions,
  now: () => number,
  appOf: () => FastifyInstance | undefined,
): Promise<AppContext> {
  if (options.data === undefined) await data.migrate();
  const helpCenterConfigured = Boolean(config.helpCenter.host || config.helpCenter.governmentHost || config.academyHosts.length);
  const secrets = await loadSecrets(data, {
    appSecret: options.appSecret ?? env('APP_SECRET'),
    previousAppSecret: options.previousAppSecret ?? env('APP_SECRET_PREVIOUS'),
    helpCenterJwtSecret: options.helpCenterJwtSecret ?? env('HELPCENTER_JWT_SECRET'),
    helpCenterConfigured,
    demo: config.devTools,
  });
  // Sealed with APP_SECRET's key; unsealed with it or, during a rotation, APP_SECRET_PREVIOUS's.
  const { seal, unseal } = sealerOf([secrets.dataKey, ...(secrets.previous ? [secrets.previous.dataKey] : [])]);
  await encryptLegacySecrets(data, seal);
  const passwords = createPasswordService(options.passwordCost);
  const limits = createLimits(data, now);
  const provider = botCheckProvider(options, secrets, now, appOf);
  const branding = createBrandingCache(data, {
    ...(options.brandingCacheMs !== undefined ? { ttlMs: options.brandingCacheMs } : {}),
    onError: (error) => appOf()?.log.warn({ err: error }, 'branding: the table could not be read; the previous rows stay in use'),
  });
  const delivery: Delivery = createDelivery({
    data,
    settings: options.delivery ?? deliveryFromEnv(),
    demo: config.devTools,
    unseal,
    now,
    ...(options.senders ? { senders: options.senders } : {}),
    ...(tracing.enabled ? { span: tracing.rootSpan } : {}),
    log: {
      info: (message) => appOf()?.log.info(message),
      warn: (message) => appOf()?.log.warn(message),
      error: (message) => appOf()?.log.error(message),
    },
  });
  const metrics = createMetrics(data, { processMetrics: options.processMetrics ?? false, delivering: delivery.policy.delivering });
  const duoSettings = options.duo === false ? undefined : (options.duo ?? duoFromEnv());
  const ctx: AppContext = {
    config,
    data,
    tracing,
    metrics,
    branding,
    contract: loadContract(),
    now,
    passwords,
    // Secure cookies on https and whenever the public URL is https (the context exists by the first request).
    sessions: createSessions(data, now, (req) => secureRequest(ctx, req)),
    tokens: createSignedTokens(data, [secrets.tokenKey, ...(secrets.previous ? [secrets.previous.tokenKey] : [])], now),
    botCheck: createBotCheck(data, provider, now),
    delivery,
    // A tenant's own Duo application (tenant-settings) before the deployment's; neither: the demo Duo.
    duo: createDuoUniversal(tenantDuo(data, unseal, duoSettings), {
      redirectUrl: `${config.publicUrl}${DUO_CALLBACK_PATH}`,
      ...(options.duoHttpsAgent ? { httpsAgent: options.duoHttpsAgent } : {}),
    }),
    outbox: createOutbox({ data, delivery, now, demo: config.devTools, publicUrl: config.publicUrl, publicPort: config.publicPort }),
    limits,
    attempts: createAttempts(limits, data, now),
    secrets,
    seal,
    unseal,
    reseed: async (how = {}) => {
      // The demo's SSO connections (sso/demoSeed.ts) need keys made before the seed's transaction.
      const also = await demoSsoSeeder(data, { baseUrl: config.publicUrl, sealer: { seal, unseal }, now });
      await seedDemoTenant(data, passwords, { now, seal, language: DEFAULT_LANGUAGE, also, ...(how.onlyIfEmpty ? { onlyIfEmpty: true } : {}) });
      await branding.refresh();
    },
  };
  return ctx;
}

/** The Fastify instance: hooks (hosts, headers, CSRF, metrics), plugins and routes over the context. */
async function createServer(
  ctx: AppContext,
  options: BuildAppOptions,
  net: { trustProxy: string[] | false; allowedHosts: AllowedHosts; metricsToken: string | undefined },
): Promise<FastifyInstance> {
  const { config, now } = ctx;
  const fastifyOptions = {
    ...(options.loggerInstance ? { loggerInstance: options.loggerInstance } : { logger: withRedaction(options.logger ?? false) }),
    // x-request-id honoured when it looks like an id, and returned; probes logged at debug (ops/requestLog.ts).
    ...requestLogOptions(),
    bodyLimit: BODY_LIMIT,
    // Only the configured proxies' X-Forwarded-* headers are believed (proxy-addr), never any hop's.
    trustProxy: net.trustProxy === false ? false : net.trustProxy.join(','),
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 300 },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
  };
  // With a certificate: HTTPS and HTTP/2 (a page's chunks over one connection, not HTTP/1.1's six),
  // HTTP/1.1 answered too (allowHTTP1). Fastify's HTTP/2 instance has the same API over Node's HTTP/1
  // compatible request and response objects, so the rest of the server is typed against the plain one.
  const app = options.tls
    ? (Fastify({
        ...(fastifyOptions as FastifyServerOptions<Http2SecureServer>),
        http2: true,
        https: { allowHTTP1: true, cert: options.tls.cert, key: options.tls.key },
      }) as unknown as FastifyInstance)
    : Fastify(fastifyOptions);
  app.setValidatorCompiler(createValidatorCompiler());
  // The API takes JSON only (form posts are accepted inside the /dev plugin alone).
  app.removeContentTypeParser('text/plain');
  app.decorate('fd', ctx);
  // First: every later hook and the handler run inside the request's span.
  registerRequestTracing(app, ctx.tracing);
  registerRequestLog(app);
  installErrorHandler(app);
  registerNulGuard(app);
  registerRequestMetrics(app, ctx.metrics);
  const purge = () =>
    Promise.all([purgeExpired(ctx.data, now(), config.funnelRetentionDays), ctx.delivery.purge(ctx.data)]).catch((error: unknown) =>
      app.log.warn({ err: error }, 'housekeeping failed'),
    );
  await purge();
  const housekeeping = setInterval(() => void purge(), 60 * 60 * 1000);
  housekeeping.unref();
  app.addHook('onClose', async () => {
    clearInterval(housekeeping);
  });
  scheduleFunnelRollUp(app, ctx.data);
  // First of all: a request for a host this server does not answer for gets 421 (DNS rebinding).
  const hosts = createHostAllowList(ctx, net.allowedHosts);
  registerHostAllowList(app, hosts, ctx.branding);
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
    recaptcha: ctx.botCheck.provider.name === 'recaptcha-enterprise',
    contentSecurityPolicy: options.contentSecurityPolicy,
    formActionOrigins:
      options.formActionOrigins ??
      [process.env.HELPCENTER_HOST, process.env.HELPCENTER_GOVERNMENT_HOST, process.env.IDP_URL].map(originOf).filter((o): o is string => o !== undefined),
    connectOrigins: dsnOrigin ? [dsnOrigin] : [],
  });
  registerCsrfProtection(app, hosts);

  await app.register(cookie);
  registerPrivateCookieAnswers(app);
  await app.register(rateLimit, {
    global: false,
    store: databaseRateLimitStore(ctx.limits, ctx.data, now),
    enableDraftSpec: false,
    errorResponseBuilder: (_req, c) => ({ statusCode: c.statusCode, error: 'RATE_LIMITED', message: `Too many requests; retry in ${c.after}` }),
  });
  // reply.sendFile for the SPA (no automatic routes: spa/serve.ts decides what is served); .br/.gz siblings
  // written by the build are sent to clients that accept them.
  await app.register(fastifyStatic, { root: config.staticDir, serve: false, preCompressed: true, suppressWarning: true } as Parameters<
    typeof fastifyStatic
  >[1]);

  for (const plugin of apiRoutes) await app.register(plugin);
  if (config.metrics.mode === 'token' || config.metrics.mode === 'open') await app.register(metricsRoute, { token: net.metricsToken });
  if (config.devTools) for (const plugin of devRoutes) await app.register(plugin);
  await app.register(notImplemented);
  registerSpa(app, config.staticDir);
  return app;
}
