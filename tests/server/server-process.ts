/**
 * The server as operators run it: `node --import tsx server/main.ts` (no --demo) in a child process
 * with the given environment only (production-start.test.ts, delivery/kill.test.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { listeningPort } from '../../scripts/server-output';

const ROOT = path.resolve(__dirname, '../..');

/** `node --import tsx server/main.ts` (no --demo) with this environment only; resolves with its URL. */
export async function startServer(env: Record<string, string>): Promise<{ url: string; child: ChildProcess; output: () => string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', LOG_LEVEL: 'warn', PORT: '0', HOST: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d) => (out += String(d)));
  child.stderr?.on('data', (d) => (out += String(d)));
  const until = Date.now() + 60_000;
  while (Date.now() < until && child.exitCode === null) {
    const port = listeningPort(out);
    if (port) return { url: `http://127.0.0.1:${port}`, child, output: () => out };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error(`the server did not start:\n${out}`);
}

export async function stopServer(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.on('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
  await exited;
  clearTimeout(timer);
}
