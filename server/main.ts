/**
 * Entry point: `npm start` (build, then `tsx server/main.ts --demo`) and `npm run serve`.
 * Reads PORT, HOST, DB_PATH, NODE_ENV, APP_ENV, STATIC_DIR, DEV_TOOLS, PUBLIC_URL, APP_SECRET,
 * TRUST_PROXY and the rest listed in docs/server.md. A configuration mistake ends the start with one
 * clear line (exit code 2), never a stack trace.
 */
import { buildApp } from './app.js';
import { ConfigError, devToolsWanted, isLoopback } from './config.js';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const dbPath = process.env.DB_PATH ?? 'data/app.sqlite';

function refuse(message: string): never {
  console.error(`frontdoor: ${message}`);
  process.exit(2);
}

let devTools = false;
try {
  devTools = devToolsWanted(process.env, process.argv.slice(2));
} catch (error) {
  refuse((error as Error).message);
}
if (devTools && process.env.NODE_ENV === 'production' && !isLoopback(host)) {
  refuse(
    `dev tools (/dev/outbox shows every reset link and code, POST /dev/reset wipes the database) are on with NODE_ENV=production: refusing to listen on the non-loopback address ${host}. Unset DEV_TOOLS, or bind HOST=127.0.0.1.`,
  );
}

let app: Awaited<ReturnType<typeof buildApp>>;
try {
  app = await buildApp({
    dbPath,
    devTools,
    publicPort: port,
    logger: { level: process.env.LOG_LEVEL ?? 'info' },
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
  app.log.info(`frontdoor listening on ${url} (NODE_ENV=${config.nodeEnv}, APP_ENV=${config.appEnv}, DB=${dbPath}, PUBLIC_URL=${config.publicUrl})`);
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

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
