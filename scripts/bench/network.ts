import type { CDPSession, Page } from 'playwright-core';
import { brotliCompressSync, constants } from 'node:zlib';

/**
 * The network side of a page load in `npm run bench` (scripts/bench.ts): every request the page made
 * (from the DevTools protocol, so lazy chunks, API calls and the favicon all count) and when the
 * network went quiet; and the scripts and styles the page had by two moments (its load event, and
 * when the app had taken the form over), from the page's Resource Timing.
 */

/** How long nothing may be in flight or start for the network to count as quiet (as the long-task quiet of the bench). */
export const QUIET_MS = 2000;

interface Request {
  start: number;
  end?: number;
  url: string;
  /** The DevTools protocol's initiator type: parser, script, other … */
  initiator: string;
  /** Bytes on the wire (headers included), once finished. */
  bytes?: number;
}

export interface NetworkWatch {
  /** Resolves once nothing has been in flight, and nothing started, for QUIET_MS (or after `timeoutMs`). */
  quiet(page: Page, timeoutMs?: number): Promise<void>;
  /** Requests made before the network went quiet, and when the last of them ended (ms after the document's request). */
  summary(): { requests: number; quietAt: number };
  /** One line per request made before the network went quiet, in order: start and end (ms), bytes, initiator, path. */
  waterfall(): string[];
}

export function watchNetwork(cdp: CDPSession): NetworkWatch {
  const requests = new Map<string, Request>();
  let origin: number | undefined;
  const now = (timestamp: number) => (timestamp - (origin ?? timestamp)) * 1000;
  cdp.on(
    'Network.requestWillBeSent',
    (event: { requestId: string; timestamp: number; request: { url: string }; initiator?: { type?: string }; redirectResponse?: unknown }) => {
      origin ??= event.timestamp;
      // A redirect reuses its request's id: still one request in flight.
      if (!requests.has(event.requestId))
        requests.set(event.requestId, { start: now(event.timestamp), url: event.request.url, initiator: event.initiator?.type ?? '' });
    },
  );
  const finish = (event: { requestId: string; timestamp: number; encodedDataLength?: number }) => {
    const request = requests.get(event.requestId);
    if (request) Object.assign(request, { end: now(event.timestamp), bytes: event.encodedDataLength });
  };
  cdp.on('Network.loadingFinished', finish);
  cdp.on('Network.loadingFailed', finish);
  // The last moment anything started or ended (CDP time, ms after the document's request).
  const lastActivity = () => Math.max(0, ...[...requests.values()].map((r) => Math.max(r.start, r.end ?? Number.POSITIVE_INFINITY)));
  return {
    async quiet(page, timeoutMs = 120_000) {
      const deadline = Date.now() + timeoutMs;
      // Poll in Node's time: CDP timestamps and wall time advance alike, so compare activity with a wall-clock mark.
      let seen = -1;
      let since = Date.now();
      while (Date.now() < deadline) {
        const last = lastActivity();
        const inFlight = [...requests.values()].some((r) => r.end === undefined);
        if (last !== seen || inFlight) {
          seen = last;
          since = Date.now();
        } else if (Date.now() - since >= QUIET_MS) return;
        await page.waitForTimeout(100);
      }
    },
    summary() {
      const all = [...requests.values()];
      return { requests: all.length, quietAt: Math.max(0, ...all.map((r) => r.end ?? r.start)) };
    },
    waterfall() {
      const cell = (value: number | string | undefined, width: number) => String(typeof value === 'number' ? Math.round(value) : (value ?? '')).padStart(width);
      return [...requests.values()]
        .sort((a, b) => a.start - b.start)
        .map((r) => `${cell(r.start, 6)} ${cell(r.end, 6)} ${cell(r.bytes, 7)} ${r.initiator.padEnd(7)} ${r.url.replace(/^https?:\/\/[^/]+/, '')}`);
    },
  };
}

/** Brotli (q11) bytes of the page's inline styles: they come with the HTML, but they are styles the page loads. */
export function inlineStyleBytes(html: string): number {
  const css = [...html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/g)].map((match) => match[1] ?? '').join('');
  return css ? brotliCompressSync(css, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }).length : 0;
}

/**
 * Bytes on the wire (compressed bodies) of the page's scripts and stylesheets that had arrived by its
 * load event, and by `live` (when the app had taken the form over; ms after navigation start).
 */
export async function scriptAndStyleBytes(page: Page, live: number): Promise<{ byLoad: number; byLive: number }> {
  // (No named function inside: tsx would wrap it in a helper the page does not have.)
  return page
    .evaluate((liveAt) => {
      const load = (performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming | undefined)?.loadEventStart ?? 0;
      const assets = (performance.getEntriesByType('resource') as PerformanceResourceTiming[]).filter((entry) =>
        /\.(m?js|css)(\?|$)/.test(new URL(entry.name).pathname),
      );
      return [load, liveAt].map((moment) => assets.filter((entry) => entry.responseEnd <= moment).reduce((sum, entry) => sum + entry.encodedBodySize, 0));
    }, live)
    .then(([byLoad = 0, byLive = 0]) => ({ byLoad, byLive }));
}
