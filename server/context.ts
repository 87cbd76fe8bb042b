/** What every route plugin can reach through `app.fd` (decorated on the root instance in app.ts). */
import type { Database } from './db/data.js';
import type { Delivery } from './delivery/index.js';
import type { DuoUniversal } from './duo/universal.js';
import type { FastifyInstance } from 'fastify';
import type { Metrics } from './ops/metrics.js';
import type { MetricsExposure } from './ops/metricsExposure.js';
import type { Tracing } from './ops/tracing.js';
import type { Contract } from './contract.js';
import type { Attempts } from './services/attempts.js';
import type { BrandingCache } from './services/branding.js';
import type { BotCheck } from './services/botCheck.js';
import type { Limits } from './services/limits.js';
import type { Outbox } from './services/outbox.js';
import type { PasswordService } from './crypto/passwords.js';
import type { Sessions } from './services/sessions.js';
import type { SignedTokens } from './services/signedTokens.js';
import type { Secrets } from './security/secrets.js';

export interface ServerConfig {
  /** NODE_ENV (reported at start-up; production refuses dev tools on a non-loopback address). */
  nodeEnv: string;
  /** APP_ENV: product behaviour that differs in production (reported by /ws/app-config). */
  appEnv: 'production' | 'development';
  /** Whether /dev/*, the demo seed and demo secrets are on (DEV_TOOLS=1 or `npm start`'s --demo). */
  devTools: boolean;
  /** Port the server is reachable on (the demo's ACCOUNT_MOVED url, '{PORT}' in branding URLs). */
  publicPort: number;
  /** Base URL of links in emails and texts (PUBLIC_URL); branded hosts have their own (branding.public_url). */
  publicUrl: string;
  /**
   * The one WebAuthn RP ID of every host (WEBAUTHN_RP_ID; demo: PUBLIC_URL's host), its branded hosts
   * listed in /.well-known/webauthn; undefined: each host's public URL is its own (services/relyingParty.ts).
   */
  webauthnRpId: string | undefined;
  /** Directory of the built SPA (index.html + assets/). */
  staticDir: string;
  /** Open registration without an invite link (/ws/app-config reports it; register refuses otherwise). */
  selfRegistrationEnabled: boolean;
  /** Sentry DSN for the browser (reported by /ws/app-config); undefined: error reporting off. */
  errorReportingDsn?: string | undefined;
  /** Help-centre base URLs (HELPCENTER_HOST, HELPCENTER_GOVERNMENT_HOST; dev tools: the demo help centre). */
  helpCenter: { host?: string; governmentHost?: string };
  /** Origins academy links may point to (ACADEMY_HOSTS). */
  academyHosts: string[];
  /** Per-address limit of the app's pages (security/pageRateLimit.ts), or false. */
  pageRateLimit: { max: number; timeWindow: number } | false;
  /** Per-address limit of the sign-in endpoints (@fastify/rate-limit route config, one bucket for all), or false. */
  authRateLimit: { max: number; timeWindow: number; groupId: string } | false;
  /** Where GET /metrics answers: its own port, the main port with a token, open (demo), or nowhere (ops/metricsExposure.ts). */
  metrics: MetricsExposure;
  /** How long funnel events are kept, in days (FUNNEL_RETENTION_DAYS; housekeeping purges older ones). */
  funnelRetentionDays: number;
}

export interface AppContext {
  config: ServerConfig;
  /** The data layer: embedded SQLite or PostgreSQL, one async interface (docs/data-layer.md). Everything the server stores goes through it. */
  data: Database;
  /** The branding rows (branded hosts, their public URLs), read again every few seconds (services/branding.ts). */
  branding: BrandingCache;
  /** Prometheus registry and the counters services increment (ops/metrics.ts). */
  metrics: Metrics;
  /** Traces (OTEL_EXPORTER_OTLP_ENDPOINT, ops/tracing.ts), or NO_TRACING; `data` is already traced through it. */
  tracing: Tracing;
  /** The METRICS_PORT listener (/metrics, /healthz, /readyz), when there is one; main.ts makes it listen. */
  metricsServer?: FastifyInstance | undefined;
  contract: Contract;
  now: () => number;
  passwords: PasswordService;
  sessions: Sessions;
  tokens: SignedTokens;
  botCheck: BotCheck;
  /** The durable delivery queue and this instance's worker (server/delivery); flows send through `outbox`. */
  delivery: Delivery;
  outbox: Outbox;
  /** Duo Universal Prompt: a tenant's own application, else DUO_CLIENT_ID / DUO_CLIENT_SECRET / DUO_API_HOST; `available` false: the demo Duo (/dev/duo). */
  duo: DuoUniversal;
  limits: Limits;
  attempts: Attempts;
  secrets: Secrets;
  /** Encrypts a secret for storage (TOTP secrets) / reads it back. */
  seal(plain: string): string;
  unseal(stored: string): string;
  /** Wipe the database and seed the demo tenant again (onlyIfEmpty: only into a database without users, at start). */
  reseed(how?: { onlyIfEmpty?: boolean }): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    fd: AppContext;
  }
}
