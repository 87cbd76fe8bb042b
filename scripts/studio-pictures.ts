import { renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './browser';

/**
 * The studio's picture taker (server/routes/studio/pictures.ts runs it by path, in a child process):
 * one Chromium, as the screenshot grid runs it, for a stream of jobs. Each line on stdin is a job
 * { id, url, width, scheme, out }: the studio's picture page at that width and colour scheme, once it
 * says it is ready, saved as a full-page PNG to `out`. Each line on stdout answers one job
 * { id, ok, error? }. It ends when stdin closes.
 */
interface Job {
  id: number;
  url: string;
  width: number;
  scheme: 'light' | 'dark';
  out: string;
}

const browser = await chromium.launch({ executablePath: findChromium((line) => console.error(line)), headless: true, args: CHROMIUM_ARGS });
const answer = (value: Record<string, unknown>) => process.stdout.write(`${JSON.stringify(value)}\n`);

// One context per colour scheme, kept: each picture is a new page in it at the job's width.
const contexts = new Map<Job['scheme'], BrowserContext>();
const contextFor = async (scheme: Job['scheme']) => {
  const known = contexts.get(scheme);
  if (known) return known;
  const made = await browser.newContext({ colorScheme: scheme, reducedMotion: 'reduce' });
  contexts.set(scheme, made);
  return made;
};

for await (const line of createInterface({ input: process.stdin })) {
  if (!line.trim()) continue;
  const job = JSON.parse(line) as Job;
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
