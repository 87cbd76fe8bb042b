import { spawn } from 'node:child_process';
import { freePort } from '../../scripts/free-port';
import { listeningAddress } from '../../scripts/server-output';

/** A server of a test's own, as `npm run serve` starts one (demo mode), on a free port. */
export interface OwnServer {
  /** The address the server printed in its start-up line. */
  address: string;
  /** The port it was told to listen on. */
  port: number;
  stop(): void;
}

/** Starts server/main.ts with these variables over the test defaults; resolves once it prints its address. */
export async function startOwnServer(env: Record<string, string> = {}): Promise<OwnServer> {
  const port = await freePort();
  // A database of its own (in memory), also when the suite's servers share a PostgreSQL (DATABASE_URL).
  const { DATABASE_URL: _shared, ...inherited } = process.env;
  const child = spawn('npx', ['tsx', 'server/main.ts'], {
    env: { ...inherited, PORT: String(port), HOST: '127.0.0.1', DB_PATH: ':memory:', NODE_ENV: 'test', DEV_TOOLS: '1', LOG_LEVEL: 'warn', ...env },
    // Its own process group: npx, tsx and node stop together.
    detached: true,
    stdio: ['ignore', 'pipe', 'ignore'],
  });
  const stop = () => {
    if (child.pid && child.exitCode === null) process.kill(-child.pid, 'SIGTERM');
  };
  try {
    const address = await new Promise<string>((resolve, reject) => {
      let out = '';
      child.stdout.on('data', (chunk: Buffer) => {
        out += chunk.toString();
        const address = listeningAddress(out);
        if (address) resolve(address);
      });
      child.once('exit', (code) => reject(new Error(`server exited (${code}): ${out}`)));
    });
    return { address, port, stop };
  } catch (error) {
    stop();
    throw error;
  }
}
