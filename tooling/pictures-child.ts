import { renameSync, writeFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { chromium, type BrowserContext } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from './browser';
import type { PictureJob } from './pictures';

/**
 * The child: each line on stdin is a job { id, url, width, scheme, out }: the studio's picture page at
 * that width and colour scheme, once it says it is ready, saved as a full-page PNG to `out`. Each line on
 * stdout answers one job { id, ok, error? }. It ends when stdin closes. tooling/pictures.ts starts it;
 * imported by nothing, so Playwright and the browser finder load only here (never in the server's process).
 */
async function serveJobs(): Promise<void> {
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
      // The chunks of the parts drawn once the page was idle have come and been drawn: both sides of a
      // change are pictured in the same settled state, so they differ only where the change does.
      await page.waitForLoadState('networkidle');
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
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

await serveJobs();
