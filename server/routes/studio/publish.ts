import { spawn } from 'node:child_process';
import path from 'node:path';
import type { PublishStatus } from '../../../catalogue/studio-contract.js';

export interface Publisher {
  status(): PublishStatus;
  /** Starts a rebuild, or one more after the one running. */
  request(): PublishStatus;
}

const MANUAL = 'npm run build';

/**
 * Rebuilds the app into the directory the server serves (scripts/publish-app.ts in a child process,
 * one at a time; saves during a rebuild start one more afterwards). server/spa.ts picks up the new
 * index.html on the next request. The script is run by its path: the server imports nothing of scripts/.
 */
export function publisher(root: string, appDir: string | undefined): Publisher {
  let status: PublishStatus = { state: appDir ? 'idle' : 'off', version: 0, command: MANUAL };
  let again = false;
  const start = () => {
    if (!appDir) return;
    status = { ...status, state: 'running', output: undefined };
    // Without the server's NODE_ENV (e.g. 'test'), the bundle is the production build `npm run build` makes.
    const { NODE_ENV: _serverEnv, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(root, 'scripts/publish-app.ts'), appDir], {
      cwd: root,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-4000);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const finish = (ok: boolean) => {
      status = ok
        ? { state: 'done', version: status.version + 1, command: MANUAL }
        : { state: 'failed', version: status.version + 1, command: MANUAL, output: output.trim().split('\n').slice(-12).join('\n') };
      if (again) {
        again = false;
        start();
      }
    };
    child.on('error', (error) => {
      output += String(error);
      finish(false);
    });
    child.on('close', (code) => finish(code === 0));
  };
  return {
    status: () => status,
    request: () => {
      if (status.state === 'running') again = true;
      else start();
      return status;
    },
  };
}
