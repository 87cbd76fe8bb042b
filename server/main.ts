/**
 * Entry point: `npm start` (build, then `node dist/server/main.js --demo`), `npm run serve`, and the
 * production start `node dist/server/main.js` (also `tsx server/main.ts` from the source tree).
 * Every variable of docs/server.md is checked first: each mistake is one line
 * `frontdoor: <what is wrong and how to fix it>` and the start ends with exit code 2, never a stack trace.
 * SIGTERM closes gracefully within SHUTDOWN_TIMEOUT_MS (ops/shutdown.ts).
 */
import { buildApp } from './app.js';
import { ConfigError, checkEnvironment, isLoopback } from './config.js';
import { installGracefulShutdown } from './ops/shutdown.js';

function refuse(...messages: string[]): never {
  for (const message of messages) console.error(`frontdoor: ${message}`);
  process.exit(2);
}

const { settings, problems } = checkEnvironment(process.env, process.argv.slice(2));
if (problems.length > 0) refuse(...problems);
const { port, host, devTools, database } = settings;

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp({
    // DATABASE_URL: PostgreSQL (several instances on one database); else the embedded SQLite file DB_PATH.
    ...(database.engine === 'postgres' ? { databaseUrl: database.url, databasePoolSize: database.poolSize } : { dbPath: database.path }),
    devTools,
    publicPort: port,
    logger: { level: settings.logLevel },
    processMetrics: true,
    delivery: settings.delivery,
    duo: settings.duo ?? false,
    ...(settings.metricsToken ? { metricsToken: settings.metricsToken } : {}),
    // A built app elsewhere than dist/app, e.g. a private build that a concurrent `npm run build` cannot replace mid-test.
    ...(process.env.STATIC_DIR ? { staticDir: process.env.STATIC_DIR } : {}),
  });
} catch (error) {
  if (error instanceof ConfigError) refuse(error.message);
  throw error;
}

/** Loopback and any-address binds are shown as localhost: WebAuthn needs a domain as relying party, not an IP. */
function shownHost(bound: string): string {
  if (bound === 'localhost' || bound === '0.0.0.0' || bound === '::' || bound === '::1' || /^127\./.test(bound)) return 'localhost';
  return bound.includes(':') ? `[${bound}]` : bound;
}

try {
  await app.listen({ port, host });
  const address = app.server.address();
  const url = `http://${shownHost(host)}:${typeof address === 'object' && address ? address.port : port}`;
  const { config } = app.fd;
  app.log.info(
    `frontdoor listening on ${url} (NODE_ENV=${config.nodeEnv}, APP_ENV=${config.appEnv}, DB=${app.fd.data.description}, PUBLIC_URL=${config.publicUrl})`,
  );
  console.log(`frontdoor: ${url}`);
  if (config.publicUrl.startsWith('https:') && !process.env.TRUST_PROXY) {
    console.log(
      `frontdoor: PUBLIC_URL is https and TRUST_PROXY is unset: cookies are Secure and HSTS is sent anyway, but the address of every visitor is the proxy's (limits per address then count everyone together). Set TRUST_PROXY=<your proxy's address> to fix that.`,
    );
  }
  if (devTools) {
    console.log(
      `frontdoor: demo mode: dev tools ON (${config.publicUrl}/dev/outbox.html shows every email and text, POST /dev/reset restores the demo tenant; secrets ${app.fd.secrets.source === 'environment' ? 'from APP_SECRET' : 'kept in the database'}). Never expose this server.`,
    );
    if (!isLoopback(host)) console.warn(`frontdoor: warning: dev tools are reachable on ${host}`);
  }
} catch (err) {
  app.log.error(err);
  process.exit(1);
}

installGracefulShutdown(app, { timeoutMs: settings.shutdownTimeoutMs });
