/**
 * What buildApp (app.ts) can be given: each option's default comes from the environment (main.ts and
 * env/) or the demo; tests pass their own. Its own file, so app.ts stays the assembly of the server.
 */
import type { FastifyBaseLogger, FastifyServerOptions } from 'fastify';
import type { AllowedHosts } from './config.js';
import type { Database } from './db/data.js';
import type { DeliverySettings } from './delivery/config.js';
import type { Channel, Sender } from './delivery/types.js';
import type { DuoSettings } from './duo/config.js';
import type { RecaptchaConfig } from './env/fromEnv.js';
import type { TlsFiles } from './env/tls.js';
import type { Argon2Cost } from './crypto/passwords.js';

export interface BuildAppOptions {
  /** Embedded SQLite file, or ':memory:' (default ':memory:'; main.ts passes DB_PATH). */
  dbPath?: string;
  /** PostgreSQL instead of SQLite: postgres://user:password@host:port/database (main.ts passes DATABASE_URL). */
  databaseUrl?: string;
  /** Connections in the PostgreSQL pool (default 10; DATABASE_POOL_SIZE). */
  databasePoolSize?: number;
  /** An already-open data layer (either engine) instead of dbPath / databaseUrl: migrated by the caller, not closed with the app. */
  data?: Database;
  /** How long the branding rows (branded hosts, their public URLs) are used before they are read again (default BRANDING_CACHE_MS). */
  brandingCacheMs?: number;
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
  /** The one WebAuthn RP ID of every host (default env WEBAUTHN_RP_ID; with dev tools PUBLIC_URL's host); checked against the public URL. */
  webauthnRpId?: string;
  /** Built SPA directory (default <repo>/dist/app). */
  staticDir?: string;
  /** A certificate and key: the server terminates TLS and speaks HTTP/2, HTTP/1.1 still answered (TLS_CERT_FILE, TLS_KEY_FILE; server/env/tls.ts). */
  tls?: TlsFiles;
  /** argon2id cost of new password hashes (default ARGON2_COST; tests use less). */
  passwordCost?: Argon2Cost;
  /** Seed the demo tenant into an empty database (default: when dev tools are on). */
  seed?: boolean;
  /** Master secret (default env APP_SECRET; required without dev tools). */
  appSecret?: string;
  /** The master secret a rotation replaces (default env APP_SECRET_PREVIOUS): unseals and verifies only. */
  previousAppSecret?: string;
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
  /** A logger made already (main.ts: the one its start-up lines went to, ops/log.ts); instead of `logger`. */
  loggerInstance?: FastifyBaseLogger;
  /** Addresses / CIDR ranges of trusted proxies (default env TRUST_PROXY; none). */
  trustProxy?: string[] | false;
  /** Per-address limit of the app's pages (default LIMITS.pagesPerAddressPerMinute per minute); false turns it off. */
  pageRateLimit?: false | { max?: number; timeWindowMs?: number };
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
  /** Host names, addresses and CIDR ranges served besides localhost, 127.0.0.1, ::1, PUBLIC_URL's and the branded hosts (default env ALLOWED_HOSTS); others get 421. */
  allowedHosts?: string[] | AllowedHosts;
  /** Days funnel events are kept before housekeeping purges them (default env FUNNEL_RETENTION_DAYS, else FUNNEL_RETENTION_DAYS_DEFAULT). */
  funnelRetentionDays?: number;
  /** OpenTelemetry collector (OTLP/HTTP base URL, default env OTEL_EXPORTER_OTLP_ENDPOINT): set, requests and statements are traced (ops/tracing.ts). */
  otlpEndpoint?: string;
  /** Clock (default Date.now). */
  now?: () => number;
  /**
   * Where GET /metrics answers (ops/metricsExposure.ts; default env METRICS_TOKEN / METRICS_PORT): with a
   * port, on a listener of its own (`app.fd.metricsServer`, main.ts listens) and not on the main port;
   * with a token alone, on the main port for its bearer; neither: open in demo mode, else not served.
   */
  metrics?: { token?: string | undefined; port?: number | undefined };
  /** Process metrics (CPU, memory, event loop, GC) in /metrics (default false; main.ts turns them on). */
  processMetrics?: boolean;
  /** Email and text providers (default: SMTP_* / MAIL_FROM / SMS_PROVIDER / TWILIO_* from the environment, server/delivery/config.ts). */
  delivery?: DeliverySettings;
  /** Tests: senders instead of those the delivery settings make. */
  senders?: Partial<Record<Channel, Sender>>;
  /** Duo Universal Prompt (default: DUO_CLIENT_ID / DUO_CLIENT_SECRET / DUO_API_HOST from the environment); false: the demo Duo. */
  duo?: DuoSettings | false;
  /** Test seam: the agent that trusts a local double of Duo's API (the SDK pins Duo's authorities). */
  duoHttpsAgent?: import('node:https').Agent;
}
