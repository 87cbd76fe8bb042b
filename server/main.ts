/** Entry point: `npm run serve` (tsx server/main.ts). Reads PORT, HOST, DB_PATH, NODE_ENV, APP_ENV, STATIC_DIR. */
import { buildApp } from './app.js';

const port = Number(process.env.PORT ?? 8080);
const host = process.env.HOST ?? '127.0.0.1';
const dbPath = process.env.DB_PATH ?? 'data/app.sqlite';

const app = await buildApp({
  dbPath,
  publicPort: port,
  logger: { level: process.env.LOG_LEVEL ?? 'info' },
  trustProxy: process.env.TRUST_PROXY === '1',
  // A built app elsewhere than dist/app, e.g. a private build that a concurrent `npm run build` cannot replace mid-test.
  ...(process.env.STATIC_DIR ? { staticDir: process.env.STATIC_DIR } : {}),
});

/** Loopback and any-address binds are shown as localhost: WebAuthn needs a domain as relying party, not an IP. */
function shownHost(bound: string): string {
  if (bound === 'localhost' || bound === '0.0.0.0' || bound === '::' || bound === '::1' || /^127\./.test(bound)) return 'localhost';
  return bound.includes(':') ? `[${bound}]` : bound;
}

try {
  await app.listen({ port, host });
  const address = app.server.address();
  const url = `http://${shownHost(host)}:${typeof address === 'object' && address ? address.port : port}`;
  app.log.info(`frontdoor listening on ${url} (NODE_ENV=${app.fd.config.nodeEnv}, APP_ENV=${app.fd.config.appEnv}, DB=${dbPath})`);
  console.log(`frontdoor: ${url}`);
} catch (err) {
  app.log.error(err);
  process.exit(1);
}

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    void app.close().then(() => process.exit(0));
  });
}
