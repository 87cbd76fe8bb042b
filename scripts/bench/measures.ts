import type { Browser, CDPSession, Page } from 'playwright-core';

/** The page measurements of `npm run bench` (scripts/bench.ts) that are not its page loads: throttling and typing. */

export const FAST_3G = { offline: false, latency: 562.5, downloadThroughput: (1.44 * 1024 * 1024) / 8, uploadThroughput: (675 * 1024) / 8 };

/** Chrome slowed down as the bench measures: CPU by `cpu`, the network (when asked) to Fast 3G, no cache. */
export async function throttle(page: Page, cpu: number, network: boolean): Promise<CDPSession> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
  if (network) await cdp.send('Network.emulateNetworkConditions', FAST_3G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpu });
  return cdp;
}

/** One keystroke: Chrome's key-to-paint (Event Timing) and the page's script time for it. */
export interface Keystroke {
  /** Event Timing duration of the key's interaction (keydown to the next paint, 8 ms steps); 8 when under 16 (not reported). */
  paint: number;
  /** Time in the key's event handlers, React's render and commit of the typed value included. */
  script: number;
}

/** Typing into the form's first text field, one key every 120 ms, CPU slowed down. */
export async function typingLatency(browser: Browser, url: string, field: string, cpu: number, length: number): Promise<Keystroke[]> {
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  await page.goto(url, { waitUntil: 'load' });
  const input = page.locator(field).first();
  await input.waitFor({ state: 'visible', timeout: 30_000 });
  // A prerendered page shows its form before the app runs: type once the app has taken it over.
  if (await page.evaluate(() => document.getElementById('root')?.dataset.page !== undefined))
    await page.waitForFunction(() => document.querySelector('form')?.dataset.fdLive !== undefined, undefined, { timeout: 30_000 });
  await throttle(page, cpu, false);
  await input.click();
  // The click's own Event Timing entry comes after its paint: let it pass before observing.
  await page.waitForTimeout(300);
  await page.evaluate(() => {
    const bench = { keys: [] as Array<{ script: number }>, interactions: new Map<number, number>() };
    (window as unknown as { __typing: typeof bench }).__typing = bench;
    // Event Timing: Chrome's own keystroke-to-paint (what INP reports). 16 ms is the lowest threshold.
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as Array<PerformanceEventTiming & { interactionId?: number }>) {
        if (entry.interactionId) bench.interactions.set(entry.interactionId, Math.max(bench.interactions.get(entry.interactionId) ?? 0, entry.duration));
      }
    }).observe({ type: 'event', durationThreshold: 16 } as PerformanceObserverInit);
    // Script time: a capturing listener on window runs first, a bubbling one last; React's root
    // listener, and the render it flushes in the microtask after it, run in between.
    for (const type of ['keydown', 'keypress', 'beforeinput', 'input', 'keyup']) {
      let start = 0;
      window.addEventListener(
        type,
        () => {
          if (type === 'keydown') bench.keys.push({ script: 0 });
          start = performance.now();
        },
        true,
      );
      window.addEventListener(type, () => {
        const key = bench.keys[bench.keys.length - 1];
        if (key) key.script += performance.now() - start;
      });
    }
  });
  const text = 'Ada Lovelace Analytical Engines Limited, London'.padEnd(length, 'x').slice(0, length);
  // One key every 120 ms: each keystroke's work finishes before the next (a fast typist's pace).
  await input.pressSequentially(text, { delay: 120 });
  await page.waitForTimeout(500);
  const { keys, paints } = await page.evaluate(() => {
    const bench = (window as unknown as { __typing: { keys: Array<{ script: number }>; interactions: Map<number, number> } }).__typing;
    return { keys: bench.keys, paints: [...bench.interactions.values()] };
  });
  await context.close();
  // Interactions under 16 ms are not reported: they count as 8 (the next step down).
  return keys.map((key, i) => ({ script: key.script, paint: paints[i] ?? 8 }));
}
