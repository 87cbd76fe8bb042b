import { spawnSync } from 'node:child_process';
import { createServer } from 'node:net';
import { availableParallelism } from 'node:os';
import { findChromium } from './browser';
import { ensureBuilt } from './ensure-build';

/**
 * `npm run test:e2e`: Playwright in Chromium against the built app and the reference server.
 * Two workers (E2E_WORKERS; at most one per core beyond the first), each with a server of its own
 * (playwright.config.ts): the first on E2E_PORT (default 8181), the others on free ports, passed on
 * in E2E_PORTS.
 */
ensureBuilt('e2e');
const chromium = findChromium();

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}

const workers = Math.max(1, Math.min(Number(process.env.E2E_WORKERS ?? 2) || 1, Math.max(2, availableParallelism())));
const first = Number(process.env.E2E_PORT ?? 8181);
const ports = [first];
while (ports.length < workers) {
  const port = await freePort();
  if (!ports.includes(port)) ports.push(port);
}
const result = spawnSync('npx', ['playwright', 'test', ...process.argv.slice(2)], {
  stdio: 'inherit',
  env: { ...process.env, CHROMIUM_PATH: chromium, E2E_PORTS: ports.join(',') },
});
process.exit(result.status ?? 1);
