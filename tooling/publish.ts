import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { PublishStatus } from '../catalogue/studio-contract';

/**
 * The studio's publish (server/routes/studio): the app rebuilt into the directory the server serves,
 * one build at a time (saves during a build start one more afterwards); server/spa.ts picks up the new
 * index.html on the next request. The build runs in a child process of this module (below): a Vite
 * build sets NODE_ENV for its process and keeps a core busy for a minute, neither of which the server
 * may suffer.
 */
export interface Publisher {
  status(): PublishStatus;
  /** Starts a rebuild, or one more after the one running. */
  request(): PublishStatus;
}

const MANUAL = 'npm run build';

/** This module in the repository, which the child runs (the server may be its compiled copy in dist/). */
const SOURCE = (root: string) => path.join(root, 'tooling/publish.ts');

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

// The child: `tsx tooling/publish.ts <dir>` builds the app into <dir> (tooling/app-build.ts, loaded
// only here: the server's process never loads Vite or the generator).
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const target = process.argv[2] ?? 'dist/app';
  const { publishApp } = await import('./app-build');
  const { CatalogueError } = await import('./generate');
  await publishApp(target).then(
    () => console.log(`app published into ${path.resolve(target)}`),
    (error: unknown) => {
      console.error(error instanceof CatalogueError ? error.message : error);
      process.exit(1);
    },
  );
}
