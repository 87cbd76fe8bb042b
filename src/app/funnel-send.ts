/**
 * The funnel's sender, loaded when the browser is idle after the first event (./funnel.ts): batches
 * go to POST /ws/events with fetch every few seconds, at once when a screen is completed
 * (a sign-in leaves the page next), and with navigator.sendBeacon when the page is hidden or left,
 * adding a `leave` for a step shown but not completed. Nothing waits for the answer: the funnel never
 * slows or fails a sign-in. The experiments' texts this browser sees load with it (./experiments.ts).
 */
import { queue, shown, type QueuedEvent } from './funnel-queue';
import { loadExperimentTexts } from './experiments';
import { currentTexts } from '../lib/i18n';

const URL = '/ws/events';
/** The contract's most events a batch (schemas/api/funnelEvents.json). */
const BATCH = 40;
const EVERY_MS = 4000;
let started = false;

function post(events: QueuedEvent[], beacon: boolean): void {
  // The page's language: an experiment limited to some languages counts this visitor in or out by it.
  const body = JSON.stringify({ events, lang: currentTexts().language || undefined });
  if (beacon && navigator.sendBeacon?.(URL, new Blob([body], { type: 'application/json' }))) return;
  // The answer's body is read and dropped: a body left unread keeps the request open in the browser's
  // network log (a page would never look idle to tooling). No keepalive: a leaving page uses the beacon.
  void fetch(URL, { method: 'POST', body, headers: { 'content-type': 'application/json' }, credentials: 'same-origin' })
    .then((response) => response.text())
    .catch(() => undefined);
}

function flush(beacon: boolean): void {
  while (queue.length > 0) post(queue.splice(0, BATCH), beacon);
}

function leave(): void {
  if (shown.screen && shown.step && !shown.completed) {
    queue.push({ kind: 'leave', screen: shown.screen, step: shown.step, ms: Math.round(performance.now() - shown.at) });
    shown.completed = true;
  }
  flush(true);
}

export function start(): void {
  if (started) return;
  started = true;
  addEventListener('pagehide', leave);
  addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flush(true);
  });
  // The browser's id (cookie fd_vid) came with the page (server/spa/serve.ts), so the assignments and
  // the first batch go side by side: one round trip after idle, not two (issue 39).
  void loadExperimentTexts().catch(() => undefined);
  setInterval(() => flush(queue.some((e) => e.kind === 'complete')), EVERY_MS);
  flush(false);
}
