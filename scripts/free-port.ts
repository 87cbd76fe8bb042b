import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, as the system picks one (listen on port 0, read it, close), for a
 * server that must be told its port before it starts: e2e workers, the throwaway PostgreSQL, tests.
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no free port'))));
    });
  });
}
