/**
 * The start-up configuration: the environment checked against its schema (server/env/variables.ts:
 * each variable's value on its own), then the rules that bind several (the database, delivery, Duo,
 * what outside demo mode requires). Every mistake is one line naming the variable and the reason;
 * main.ts logs them all and exits 2, so an operator fixes the whole environment in one go.
 */
import { checkDelivery, type DeliverySettings } from './delivery/config.js';
import type { Channel } from './delivery/types.js';
import { checkDuo, type DuoSettings } from './duo/config.js';
import { ConfigError, hostClaimsRpId, isLoopback, parseDatabaseUrl, parsePublicUrl, parseRpId, rpIdNotCovering } from './env/parse.js';
import { checkValues, unknownVariables } from './env/variables.js';
import { readTlsFiles, type TlsFiles } from './env/tls.js';

export {
  ConfigError,
  isLoopback,
  MIN_SECRET_LENGTH,
  parseAllowedHosts,
  parseDatabaseUrl,
  parseOrigins,
  parsePublicUrl,
  parseTrustProxy,
  webauthnRpId,
  type AllowedHosts,
} from './env/parse.js';

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
  /** /metrics: its bearer token (METRICS_TOKEN) and its own listener (METRICS_PORT); neither outside demo mode: not served. */
  metrics: MetricsSetting;
  /** Email (SMTP_*, MAIL_FROM) and texts (SMS_PROVIDER, TWILIO_*): server/delivery/config.ts. */
  delivery: DeliverySettings;
  /** Duo Universal Prompt (DUO_*), when configured: server/duo/config.ts. */
  duo: DuoSettings | undefined;
  /** Channels without a transport (held, never sent): outside demo mode only with DELIVERY=hold. */
  held: Channel[];
  /** Lines worth a warning that do not stop the start (a variable of ours the schema does not know). */
  warnings: string[];
  /** TLS_CERT_FILE and TLS_KEY_FILE read: the server terminates TLS and speaks HTTP/2 (server/env/tls.ts). */
  tls: TlsFiles | undefined;
}

export interface MetricsSetting {
  token: string | undefined;
  port: number | undefined;
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

const set = (env: NodeJS.ProcessEnv, name: string) => env[name] !== undefined && env[name] !== '';
/** A number the schema has checked (its fallback when unset or wrong: the schema reported that). */
const wholeNumber = (env: NodeJS.ProcessEnv, name: string, fallback: number) => (/^\d+$/.test((env[name] ?? '').trim()) ? Number(env[name]) : fallback);

/** Outside demo mode a channel without a transport is refused unless DELIVERY=hold says so on purpose. */
function checkTransports(env: NodeJS.ProcessEnv, delivery: DeliverySettings, devTools: boolean, problems: string[]): Channel[] {
  const held: Channel[] = [...(delivery.smtp ? [] : ['email' as const]), ...(delivery.sms ? [] : ['sms' as const])];
  if (devTools || held.length === 0 || env.DELIVERY === 'hold') return held;
  const missing = [...(delivery.smtp ? [] : ['SMTP_URL (email)']), ...(delivery.sms ? [] : ['SMS_PROVIDER (texts)'])];
  problems.push(
    `${missing.join(' and ')} ${missing.length > 1 ? 'are' : 'is'} not configured: outside demo mode reset links, activation emails and codes would be queued and never sent while the visitor is told they were. Configure the transport, or set DELIVERY=hold to start anyway with those messages held.`,
  );
  return held;
}

/** Rules between variables that no single value shows. */
function crossChecks(env: NodeJS.ProcessEnv, devTools: boolean, host: string, problems: string[]): void {
  if (devTools && env.NODE_ENV === 'production' && !isLoopback(host)) {
    problems.push(
      `dev tools (/dev/outbox shows every reset link and code, POST /dev/reset wipes the database) are on with NODE_ENV=production: refusing to listen on the non-loopback address ${host}. Unset DEV_TOOLS, or bind HOST=127.0.0.1.`,
    );
  }
  if (!devTools) {
    if (!set(env, 'APP_SECRET'))
      problems.push(
        'APP_SECRET is required outside demo mode: a random string of at least 32 characters, the same on every instance (e.g. `openssl rand -base64 48`).',
      );
    if (!set(env, 'PUBLIC_URL'))
      problems.push('PUBLIC_URL is required outside demo mode: the base URL of links in emails and texts, e.g. PUBLIC_URL=https://signin.example.com.');
  }
  if (set(env, 'APP_SECRET_PREVIOUS') && (!set(env, 'APP_SECRET') || env.APP_SECRET_PREVIOUS === env.APP_SECRET))
    problems.push('APP_SECRET_PREVIOUS is the secret a rotation replaces: set the new one as APP_SECRET (a different value) beside it.');
  if (set(env, 'RECAPTCHA_SITE_KEY') && !(set(env, 'RECAPTCHA_PROJECT_ID') && set(env, 'RECAPTCHA_API_KEY'))) {
    problems.push('RECAPTCHA_SITE_KEY needs RECAPTCHA_PROJECT_ID and RECAPTCHA_API_KEY: reCAPTCHA tokens are verified server side with the assessment API.');
  }
  if (set(env, 'METRICS_PORT') && env.METRICS_PORT === (env.PORT || '8080'))
    problems.push(`METRICS_PORT must differ from PORT (${env.METRICS_PORT}): it is a second listener, for the cluster network only.`);
  checkRpIdAgainstPublicUrl(env, problems);
}

/** WEBAUTHN_RP_ID must cover PUBLIC_URL's host (each value on its own: the schema's lines). */
function checkRpIdAgainstPublicUrl(env: NodeJS.ProcessEnv, problems: string[]): void {
  if (!set(env, 'WEBAUTHN_RP_ID')) return;
  let rpId: string;
  let publicHost: string;
  try {
    rpId = parseRpId(env.WEBAUTHN_RP_ID ?? '');
    publicHost = new URL(parsePublicUrl(env.PUBLIC_URL || `http://localhost:${env.PORT || '8080'}`)).hostname;
  } catch (error) {
    // Not a domain name, or a bad PUBLIC_URL: the schema's own line says so.
    if (!(error instanceof ConfigError)) throw error;
    return;
  }
  if (!hostClaimsRpId(publicHost, rpId)) problems.push(rpIdNotCovering(rpId, publicHost));
}

/**
 * Every start-up setting checked at once: each problem is one line (main.ts logs them all and exits
 * 2), so an operator fixes the whole environment in one go instead of one error per start.
 */
export function checkEnvironment(env: NodeJS.ProcessEnv, argv: readonly string[]): { settings: StartSettings; problems: string[] } {
  const problems = checkValues(env);
  const host = env.HOST ?? '127.0.0.1';
  if (host === '') problems.push('HOST must be an address to listen on (127.0.0.1, 0.0.0.0, ::), not empty.');
  let devTools = false;
  try {
    devTools = devToolsWanted(env, argv);
  } catch (error) {
    // DEV_TOOLS' value: the schema has said so.
    if (!(error instanceof ConfigError)) throw error;
  }
  const database = checkDatabase(env, problems);
  crossChecks(env, devTools, host, problems);
  const delivery = checkDelivery(env, problems);
  const held = checkTransports(env, delivery, devTools, problems);
  const duo = checkDuo(env, problems);
  const tls = readTlsFiles(env, problems);
  const settings: StartSettings = {
    port: wholeNumber(env, 'PORT', 8080),
    host,
    devTools,
    database,
    logLevel: env.LOG_LEVEL || 'info',
    shutdownTimeoutMs: wholeNumber(env, 'SHUTDOWN_TIMEOUT_MS', 10_000),
    metrics: { token: env.METRICS_TOKEN || undefined, port: set(env, 'METRICS_PORT') ? wholeNumber(env, 'METRICS_PORT', 0) : undefined },
    delivery,
    duo,
    held,
    warnings: unknownVariables(env).map(({ name, nearest }) => `${name} is not a variable of this server (did you mean ${nearest}?); it is ignored.`),
    tls,
  };
  return { settings, problems };
}
