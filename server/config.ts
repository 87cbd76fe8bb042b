/**
 * Start-up configuration that can be wrong: the dev-tools switch, trusted proxies, the public base URL.
 * A bad value throws ConfigError, which main.ts prints as one line (no stack trace) before exiting.
 */
import net from 'node:net';
import { checkDelivery, type DeliverySettings } from './delivery/config.js';
import { checkDuo, type DuoSettings } from './duo/config.js';

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Dev tools (/dev/*, the demo seed, demo secrets) are off unless asked for: `DEV_TOOLS=1`, or the
 * `--demo` flag of `npm start` when NODE_ENV is not production. `DEV_TOOLS=0` turns them off whatever
 * the flag says.
 */
export function devToolsWanted(env: NodeJS.ProcessEnv, argv: readonly string[]): boolean {
  if (env.DEV_TOOLS === '1') return true;
  if (env.DEV_TOOLS !== undefined && env.DEV_TOOLS !== '') {
    if (env.DEV_TOOLS !== '0') throw new ConfigError(`DEV_TOOLS must be 1 or 0, not ${JSON.stringify(env.DEV_TOOLS)}.`);
    return false;
  }
  return argv.includes('--demo') && env.NODE_ENV !== 'production';
}

/** True for addresses only this machine can reach. */
export function isLoopback(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (h === 'localhost' || h === '::1') return true;
  if (net.isIPv4(h)) return h.startsWith('127.');
  return h.startsWith('::ffff:127.');
}

const ADDRESS = /^[0-9a-fA-F:.]+(\/\d{1,3})?$/;

/**
 * TRUST_PROXY: the addresses or CIDR ranges of the proxies in front of this server
 * (`10.0.0.0/8,127.0.0.1`). Only hops from these are believed in X-Forwarded-For/-Proto/-Host; any
 * other value (1, true, *) is refused, because trusting every hop lets a client pick its own address.
 */
export function parseTrustProxy(value: string | undefined): string[] | false {
  if (value === undefined || value.trim() === '') return false;
  const entries = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of entries) {
    const [address, bits] = entry.split('/') as [string, string | undefined];
    const family = net.isIP(address);
    const maxBits = family === 4 ? 32 : 128;
    if (!ADDRESS.test(entry) || family === 0 || (bits !== undefined && !(Number(bits) >= 0 && Number(bits) <= maxBits))) {
      throw new ConfigError(
        `TRUST_PROXY takes the addresses or CIDR ranges of your proxies, e.g. TRUST_PROXY=10.0.0.0/8,127.0.0.1; ${JSON.stringify(entry)} is not one${['1', 'true', '*'].includes(entry) ? ' (trusting every hop would let any client choose its own address)' : ''}.`,
      );
    }
  }
  return entries;
}

/** A public base URL (PUBLIC_URL or a branding row): http(s), no credentials, query or fragment; no trailing slash. */
export function parsePublicUrl(value: string, name = 'PUBLIC_URL'): string {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL such as https://signin.example.com, not ${JSON.stringify(value)}.`);
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || url.username || url.password || url.search || url.hash) {
    throw new ConfigError(`${name} must be an absolute http(s) URL without credentials, query or fragment, not ${JSON.stringify(value)}.`);
  }
  return url.toString().replace(/\/+$/, '');
}

/** Comma-separated origins (ACADEMY_HOSTS): each an http(s) origin. */
export function parseOrigins(value: string | undefined, name: string): string[] {
  if (!value) return [];
  return value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((entry) => new URL(parsePublicUrl(entry, name)).origin);
}

/** PostgreSQL connection string (DATABASE_URL): postgres:// or postgresql://, a host (or ?host= socket folder) and a database name. */
export function parseDatabaseUrl(value: string): string {
  const shown = value.replace(/\/\/([^:/@]*):[^@/]*@/, '//$1:***@');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new ConfigError(`DATABASE_URL must be a PostgreSQL URL such as postgres://user:password@db.internal:5432/frontdoor, not ${JSON.stringify(shown)}.`);
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new ConfigError(
      `DATABASE_URL must start with postgres:// or postgresql:// (it selects PostgreSQL; for the embedded SQLite set DB_PATH instead), not ${JSON.stringify(shown)}.`,
    );
  }
  if (!url.hostname && !url.searchParams.get('host')) throw new ConfigError(`DATABASE_URL names no host: ${JSON.stringify(shown)}.`);
  if (url.pathname.replace(/^\//, '') === '') throw new ConfigError(`DATABASE_URL names no database (…/frontdoor at the end): ${JSON.stringify(shown)}.`);
  return value;
}

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
/** Shortest APP_SECRET / HELPCENTER_JWT_SECRET accepted. */
export const MIN_SECRET_LENGTH = 32;

export type DatabaseSetting = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; poolSize: number };

/** What main.ts needs before buildApp: where to listen, which database, how long a shutdown may take. */
export interface StartSettings {
  port: number;
  host: string;
  devTools: boolean;
  database: DatabaseSetting;
  logLevel: string;
  /** How long SIGTERM waits for requests in flight before giving up (exit 1). */
  shutdownTimeoutMs: number;
  /** Bearer token GET /metrics asks for (unset: open, keep it off the public proxy). */
  metricsToken: string | undefined;
  /** Email (SMTP_*, MAIL_FROM) and texts (SMS_PROVIDER, TWILIO_*): server/delivery/config.ts. */
  delivery: DeliverySettings;
  /** Duo Universal Prompt (DUO_*), when configured: server/duo/config.ts. */
  duo: DuoSettings | undefined;
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number, problems: string[]): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!/^\d+$/.test(raw.trim()) || n < min || n > max) {
    problems.push(`${name} must be a whole number from ${min} to ${max}, not ${JSON.stringify(raw)}.`);
    return fallback;
  }
  return n;
}

/** The database of DATABASE_URL (PostgreSQL) or DB_PATH (SQLite); each problem is pushed as a line. Also used by `npm run admin`. */
export function checkDatabase(env: NodeJS.ProcessEnv, problems: string[]): DatabaseSetting {
  const poolSize = integer(env, 'DATABASE_POOL_SIZE', 10, 1, 1000, problems);
  if (env.DATABASE_URL === undefined || env.DATABASE_URL === '') return { engine: 'sqlite', path: env.DB_PATH || 'data/app.sqlite' };
  if (env.DB_PATH) problems.push('DATABASE_URL and DB_PATH are both set: DATABASE_URL selects PostgreSQL, DB_PATH the embedded SQLite file. Unset one.');
  try {
    return { engine: 'postgres', url: parseDatabaseUrl(env.DATABASE_URL), poolSize };
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    problems.push(error.message);
    return { engine: 'sqlite', path: env.DB_PATH || 'data/app.sqlite' };
  }
}

/**
 * Every start-up setting checked at once: each problem is one line (main.ts prints them all and
 * exits 2), so an operator fixes the whole environment in one go instead of one error per start.
 */
export function checkEnvironment(env: NodeJS.ProcessEnv, argv: readonly string[]): { settings: StartSettings; problems: string[] } {
  const problems: string[] = [];
  const attempt = <T>(fn: () => T, fallback: T): T => {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return fallback;
    }
  };
  const set = (name: string) => env[name] !== undefined && env[name] !== '';
  const port = integer(env, 'PORT', 8080, 0, 65535, problems);
  const host = env.HOST ?? '127.0.0.1';
  if (host.trim() === '') problems.push('HOST must be an address to listen on (127.0.0.1, 0.0.0.0, ::), not empty.');
  const devTools = attempt(() => devToolsWanted(env, argv), false);
  if (devTools && env.NODE_ENV === 'production' && !isLoopback(host)) {
    problems.push(
      `dev tools (/dev/outbox shows every reset link and code, POST /dev/reset wipes the database) are on with NODE_ENV=production: refusing to listen on the non-loopback address ${host}. Unset DEV_TOOLS, or bind HOST=127.0.0.1.`,
    );
  }
  const database = checkDatabase(env, problems);
  const logLevel = env.LOG_LEVEL || 'info';
  if (!LOG_LEVELS.includes(logLevel)) problems.push(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, not ${JSON.stringify(logLevel)}.`);
  const shutdownTimeoutMs = integer(env, 'SHUTDOWN_TIMEOUT_MS', 10_000, 0, 600_000, problems);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken !== undefined && metricsToken.length < 16)
    problems.push('METRICS_TOKEN must be at least 16 characters long (Prometheus sends it as a bearer token).');

  attempt(() => parseTrustProxy(env.TRUST_PROXY), false);
  if (set('PUBLIC_URL')) attempt(() => parsePublicUrl(env.PUBLIC_URL as string), '');
  attempt(() => parseOrigins(env.ACADEMY_HOSTS, 'ACADEMY_HOSTS'), []);
  for (const name of ['APP_SECRET', 'HELPCENTER_JWT_SECRET']) {
    if (set(name) && (env[name] as string).length < MIN_SECRET_LENGTH)
      problems.push(`${name} must be at least ${MIN_SECRET_LENGTH} characters long (e.g. the output of \`openssl rand -base64 48\`).`);
  }
  if (!devTools) {
    if (!set('APP_SECRET'))
      problems.push(
        'APP_SECRET is required outside demo mode: a random string of at least 32 characters, the same on every instance (e.g. `openssl rand -base64 48`).',
      );
    if (!set('PUBLIC_URL'))
      problems.push('PUBLIC_URL is required outside demo mode: the base URL of links in emails and texts, e.g. PUBLIC_URL=https://signin.example.com.');
  }
  if (set('RECAPTCHA_SITE_KEY') && !(set('RECAPTCHA_PROJECT_ID') && set('RECAPTCHA_API_KEY'))) {
    problems.push('RECAPTCHA_SITE_KEY needs RECAPTCHA_PROJECT_ID and RECAPTCHA_API_KEY: reCAPTCHA tokens are verified server side with the assessment API.');
  }
  if (set('RECAPTCHA_MIN_SCORE') && !(Number(env.RECAPTCHA_MIN_SCORE) >= 0 && Number(env.RECAPTCHA_MIN_SCORE) <= 1)) {
    problems.push('RECAPTCHA_MIN_SCORE must be a number from 0 to 1.');
  }
  const delivery = checkDelivery(env, problems);
  const duo = checkDuo(env, problems);
  return { settings: { port, host, devTools, database, logLevel, shutdownTimeoutMs, metricsToken, delivery, duo }, problems };
}
