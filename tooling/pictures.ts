import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import crypto from 'node:crypto';
import { renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { BrowserContext } from 'playwright-core';

/**
 * The studio's picture taker (server/routes/studio/pictures.ts): one Chromium, as the screenshot grid
 * runs it, for a stream of jobs, in a child process of this module (below): the browser's driver and
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

/** This module in the repository, which the child runs (the server may be its compiled copy in dist/). */
const SOURCE = (root: string) => path.join(root, 'tooling/pictures.ts');

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

/**
 * The child: each line on stdin is a job { id, url, width, scheme, out }: the studio's picture page at
 * that width and colour scheme, once it says it is ready, saved as a full-page PNG to `out`. Each line on
 * stdout answers one job { id, ok, error? }. It ends when stdin closes. Playwright and the browser finder
 * load only here.
 */
async function serveJobs(): Promise<void> {
  const [{ chromium }, { CHROMIUM_ARGS, findChromium }] = await Promise.all([import('playwright-core'), import('./browser')]);
  const browser = await chromium.launch({ executablePath: findChromium((line) => console.error(line)), headless: true, args: CHROMIUM_ARGS });
  const answer = (value: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(value)}\n`);
  // One context per colour scheme, kept: each picture is a new page in it at the job's width.
  const contexts = new Map<string, BrowserContext>();
  const contextFor = async (scheme: string) => {
    const known = contexts.get(scheme);
    if (known) return known;
    const made = await browser.newContext({ colorScheme: scheme === 'dark' ? 'dark' : 'light', reducedMotion: 'reduce' });
    contexts.set(scheme, made);
    return made;
  };
  for await (const line of createInterface({ input: process.stdin })) {
    if (!line.trim()) continue;
    const job = JSON.parse(line) as PictureJob & { id: number };
    const page = await (await contextFor(job.scheme)).newPage();
    try {
      await page.setViewportSize({ width: job.width, height: 800 });
      await page.goto(job.url);
      await page.waitForSelector('html[data-picture-ready], html[data-picture-failed]', { state: 'attached', timeout: 30_000 });
      const failed = await page.getAttribute('html', 'data-picture-failed');
      if (failed) throw new Error(failed);
      // Written beside and renamed: a picture is never read half written.
      writeFileSync(`${job.out}.part`, await page.screenshot({ fullPage: true, animations: 'disabled' }));
      renameSync(`${job.out}.part`, job.out);
      answer({ id: job.id, ok: true });
    } catch (error) {
      answer({ id: job.id, ok: false, error: error instanceof Error ? error.message.split('\n')[0] : String(error) });
    } finally {
      await page.close();
    }
  }
  await browser.close();
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await serveJobs();
