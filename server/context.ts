/** What every route plugin can reach through `app.fd` (decorated on the root instance in app.ts). */
import type { Db } from './db/index.js';
import type { Contract } from './contract.js';
import type { Attempts } from './services/attempts.js';
import type { BotCheck } from './services/botCheck.js';
import type { Outbox } from './services/outbox.js';
import type { PasswordService } from './services/passwords.js';
import type { Sessions } from './services/sessions.js';
import type { SignedTokens } from './services/signedTokens.js';

export interface ServerConfig {
  /** NODE_ENV; 'production' turns off /dev/* and the demo seed. */
  nodeEnv: string;
  /** APP_ENV: product behaviour that differs in production (reported by /ws/app-config). */
  appEnv: 'production' | 'development';
  /** Whether /dev/* routes and the demo seed are on. */
  devTools: boolean;
  /** Port the server is reachable on (used in the demo tenant's ACCOUNT_MOVED url). */
  publicPort: number;
  /** Directory of the built SPA (index.html + assets/). */
  staticDir: string;
  recaptchaSiteKey: string | undefined;
  /** Open registration without an invite link (/ws/app-config reports it; register refuses otherwise). */
  selfRegistrationEnabled: boolean;
  /** Sentry DSN for the browser (reported by /ws/app-config); undefined: error reporting off. */
  errorReportingDsn?: string | undefined;
  /** Per-IP limit of the sign-in endpoints (@fastify/rate-limit route config), or false. */
  authRateLimit: { max: number; timeWindow: string } | false;
}

export interface AppContext {
  config: ServerConfig;
  db: Db;
  contract: Contract;
  now: () => number;
  passwords: PasswordService;
  sessions: Sessions;
  tokens: SignedTokens;
  botCheck: BotCheck;
  outbox: Outbox;
  attempts: Attempts;
  /** Wipe the database and seed the demo tenant again. */
  reseed(): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    fd: AppContext;
  }
}
