/**
 * The page's side of the funnel (issue 38; docs/editing-screens.md "What is recorded"): the engine's
 * events wait in a queue here, each with the milliseconds since its step was shown, until the sender
 * (./funnel-send.ts) has loaded, when the browser is idle after the form is usable. Nothing else is in
 * the first load: this module is a queue and a timer.
 */
import type { FunnelEvent } from '../engine';
import { queue, shown } from './funnel-queue';

let loading = false;

export function recordFunnel(event: FunnelEvent): void {
  const now = performance.now();
  if (event.kind === 'step') Object.assign(shown, { screen: event.screen, step: event.step, at: now, completed: false });
  if (event.kind === 'complete') shown.completed = true;
  queue.push(event.kind === 'step' ? { ...event } : { ...event, ms: Math.round(now - shown.at) });
  if (loading) return;
  loading = true;
  const load = () =>
    void import('./funnel-send').then(
      (sender) => sender.start(),
      () => undefined,
    );
  if ('requestIdleCallback' in window) window.requestIdleCallback(load, { timeout: 5000 });
  else setTimeout(load, 1000);
}
