/**
 * Entry point: `npm start` (build, then `node dist/server/main.js --demo`), `npm run serve`, and the
 * production start `node dist/server/main.js` (also `tsx server/main.ts` from the source tree);
 * `--env-file <path>` adds a file's variables (server/env/file.ts). Every variable is checked first
 * against the schema (server/env/variables.ts, config.ts): each mistake is one JSON log line at level
 * fatal naming the variable and the reason, and the start ends with exit code 2, never a stack trace.
 * Everything is logged as JSON (ops/log.ts); SIGTERM closes gracefully within SHUTDOWN_TIMEOUT_MS.
 */
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import { ConfigError, checkEnvironment, isLoopback, type StartSettings } from './config.js';
import { applyEnvFiles } from './env/file.js';
import { LOG_LEVELS } from './env/variables.js';
import { createLogger, startupLog, variableOf } from './ops/log.js';
import { installGracefulShutdown } from './ops/shutdown.js';

const envFiles = applyEnvFiles(process.argv.slice(2), process.env);
const { settings, problems } = checkEnvironment(process.env, envFiles.argv);
const log = createLogger(LOG_LEVELS.includes(settings.logLevel) ? settings.logLevel : 'info');
const startup = startupLog(log);

function refuse(lines: string[]): never {
  for (const line of lines) log.fatal({ variable: variableOf(line) }, line);
  process.exit(2);
}

if (envFiles.problems.length + problems.length > 0) refuse([...envFiles.problems, ...problems]);
for (const file of envFiles.files) startup.info({ envFile: file }, `variables read from ${file} (the environment wins where both set one)`);
for (const warning of settings.warnings) startup.warn(warning);

let app: FastifyInstance;
try {
  app = await buildApp({
    // DATABASE_URL: PostgreSQL (several instances on one database); else the embedded SQLite file DB_PATH.
    ...(settings.database.engine === 'postgres'
      ? { databaseUrl: settings.database.url, databasePoolSize: settings.database.poolSize }
      : { dbPath: settings.database.path }),
    devTools: settings.devTools,
    publicPort: settings.port,
    loggerInstance: log,
    processMetrics: true,
    delivery: settings.delivery,
    duo: settings.duo ?? false,
    metrics: settings.metrics,
    // A built app elsewhere than dist/app, e.g. a private build that a concurrent `npm run build` cannot replace mid-test.
    ...(process.env.STATIC_DIR ? { staticDir: process.env.STATIC_DIR } : {}),
    // TLS_CERT_FILE and TLS_KEY_FILE: HTTPS and HTTP/2 on this port (server/env/tls.ts).
    ...(settings.tls ? { tls: settings.tls } : {}),
  });
} catch (error) {
  if (error instanceof ConfigError) refuse([error.message]);
  throw error;
}

/** Loopback and any-address binds are shown as localhost: WebAuthn needs a domain as relying party, not an IP. */
function shownHost(bound: string): string {
  if (bound === 'localhost' || bound === '0.0.0.0' || bound === '::' || bound === '::1' || /^127\./.test(bound)) return 'localhost';
  return bound.includes(':') ? `[${bound}]` : bound;
}

/** What an operator must know of this start, once, whatever LOG_LEVEL says. */
function reportStart(url: string, s: StartSettings): void {
  const { config } = app.fd;
  startup.info(
    { url, nodeEnv: config.nodeEnv, appEnv: config.appEnv, database: app.fd.data.description, publicUrl: config.publicUrl, demo: s.devTools },
    `listening on ${url}`,
  );
  if (config.publicUrl.startsWith('https:') && !process.env.TRUST_PROXY) {
    startup.warn(
      'PUBLIC_URL is https and TRUST_PROXY is unset: cookies are Secure and HSTS is sent anyway, but the address of every visitor is the proxy’s (limits per address then count everyone together). Set TRUST_PROXY=<your proxy’s address> to fix that.',
    );
  }
  if (s.devTools) {
    startup.warn(
      `demo mode: dev tools ON (${config.publicUrl}/dev/outbox.html shows every email and text, POST /dev/reset restores the demo tenant; secrets ${app.fd.secrets.source === 'environment' ? 'from APP_SECRET' : 'kept in the database'}). Never expose this server.`,
    );
    if (!isLoopback(s.host)) startup.warn(`dev tools are reachable on ${s.host}`);
  }
  // Held on purpose (DELIVERY=hold, or demo mode): said at every start, and by the frontdoor_delivery_held gauge.
  if (s.held.length > 0 && !s.devTools)
    startup.warn(
      { held: s.held },
      `DELIVERY=hold: ${s.held.map((c) => (c === 'email' ? 'emails' : 'texts')).join(' and ')} are held, never sent (reset links, activation emails, codes); the visitor is still told they were sent`,
    );
  startup.info({ metrics: app.fd.config.metrics }, `/metrics: ${app.fd.config.metrics.description}`);
}

try {
  await app.listen({ port: settings.port, host: settings.host });
  const address = app.server.address();
  const url = `${settings.tls ? 'https' : 'http'}://${shownHost(settings.host)}:${typeof address === 'object' && address ? address.port : settings.port}`;
  const metricsServer = app.fd.metricsServer;
  if (metricsServer && settings.metrics.port !== undefined) await metricsServer.listen({ port: settings.metrics.port, host: settings.host });
  reportStart(url, settings);
} catch (err) {
  log.error({ err }, 'the server could not start listening');
  process.exit(1);
}

installGracefulShutdown(app, { timeoutMs: settings.shutdownTimeoutMs, log: (line) => startup.info(line) });
