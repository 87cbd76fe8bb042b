import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import path from 'node:path';
import { createInterface } from 'node:readline';

/**
 * The studio's picture taker (server/routes/studio/pictures.ts): one Chromium, as the screenshot grid
 * runs it, for a stream of jobs, in a child process (tooling/pictures-child.ts): the browser's driver and
 * its screenshots stay out of the server's process, and a browser that hangs or dies takes only the
 * child with it. Started on the first picture, stopped when idle; one job at a time, in order.
 */
export interface PictureJob {
  url: string;
  width: number;
  scheme: string;
  out: string;
}

/** The renderer stops after this long without a picture to take. */
const IDLE_MS = 30_000;

/** The child's module in the repository (tooling/pictures-child.ts): the server may be a compiled copy in dist/, without Playwright. */
const SOURCE = (root: string) => path.join(root, 'tooling/pictures-child.ts');

export interface PictureRenderer {
  /** The current child's ticket: the picture page it opens is let in by it. */
  ticket(): string | undefined;
  /** Takes a picture; the job's URL is made with the renderer's ticket. */
  take(job: (ticket: string) => PictureJob): Promise<void>;
  close(): void;
}

export function createPictureRenderer(root: string): PictureRenderer {
  let child: ChildProcessWithoutNullStreams | undefined;
  let ticket: string | undefined;
  let idle: NodeJS.Timeout | undefined;
  let next = 0;
  let errors = '';
  const waiting = new Map<number, { resolve(): void; reject(error: Error): void }>();

  const stop = () => {
    child?.stdin.end();
    child = undefined;
    ticket = undefined;
  };
  const start = () => {
    ticket = crypto.randomBytes(24).toString('base64url');
    errors = '';
    const proc = spawn(process.execPath, ['--import', 'tsx', SOURCE(root)], { cwd: root, stdio: ['pipe', 'pipe', 'pipe'] });
    proc.stderr.on('data', (chunk: Buffer) => {
      errors = (errors + chunk.toString('utf8')).slice(-2000);
    });
    createInterface({ input: proc.stdout }).on('line', (line) => {
      const answer = JSON.parse(line) as { id: number; ok: boolean; error?: string };
      const job = waiting.get(answer.id);
      waiting.delete(answer.id);
      if (answer.ok) job?.resolve();
      else job?.reject(new Error(answer.error ?? 'the picture failed'));
    });
    proc.on('close', () => {
      if (child === proc) stop();
      for (const job of waiting.values()) job.reject(new Error(`the picture renderer stopped: ${errors.trim().split('\n').slice(-3).join(' ')}`));
      waiting.clear();
    });
    proc.on('error', () => undefined);
    child = proc;
  };
  return {
    ticket: () => ticket,
    take(job) {
      if (!child) start();
      clearTimeout(idle);
      const id = (next += 1);
      const done = new Promise<void>((resolve, reject) => waiting.set(id, { resolve, reject }));
      child?.stdin.write(`${JSON.stringify({ id, ...job(ticket ?? '') })}\n`);
      void done
        .catch(() => undefined)
        .finally(() => {
          if (waiting.size === 0) idle = setTimeout(stop, IDLE_MS).unref();
        });
      return done;
    },
    close() {
      clearTimeout(idle);
      stop();
    },
  };
}
