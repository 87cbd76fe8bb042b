import { spawn } from 'node:child_process';
import path from 'node:path';
import type { PublishStatus } from '../catalogue/studio-contract';

/**
 * The studio's publish (server/routes/studio): the app rebuilt into the directory the server serves,
 * one build at a time (saves during a build start one more afterwards); server/spa/build.ts picks up the new
 * index.html on the next request. The build runs in a child process (tooling/publish-child.ts): a Vite
 * build sets NODE_ENV for its process and keeps a core busy for a minute, neither of which the server
 * may suffer.
 */
export interface Publisher {
  status(): PublishStatus;
  /** Starts a rebuild, or one more after the one running. */
  request(): PublishStatus;
}

const MANUAL = 'npm run build';

/** The child's module in the repository (tooling/publish-child.ts): the server may be a compiled copy in dist/, without the build code. */
const SOURCE = (root: string) => path.join(root, 'tooling/publish-child.ts');

export function publisher(root: string, appDir: string | undefined): Publisher {
  let status: PublishStatus = { state: appDir ? 'idle' : 'off', version: 0, command: MANUAL };
  let again = false;
  const start = () => {
    if (!appDir) return;
    status = { ...status, state: 'running', output: undefined };
    // Without the server's NODE_ENV (e.g. 'test'), the bundle is the production build `npm run build` makes.
    const { NODE_ENV: _serverEnv, ...env } = process.env;
    const child = spawn(process.execPath, ['--import', 'tsx', SOURCE(root), appDir], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'] });
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
