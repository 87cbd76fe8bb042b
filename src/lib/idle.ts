/**
 * Runs `task` once the page is idle: after what is running now and the browser's next idle period
 * (requestIdleCallback; at the latest after `timeoutMs`), or, in a browser without it, shortly after.
 * What a page needs only later (the passkey autofill, the rest of the styles) waits for this, so the
 * chunks a page needs to take its form over have the network and the main thread to themselves.
 * Returns a cancel function.
 */
export function whenIdle(task: () => void, timeoutMs = 2000): () => void {
  if (typeof globalThis.requestIdleCallback === 'function') {
    const handle = globalThis.requestIdleCallback(task, { timeout: timeoutMs });
    return () => globalThis.cancelIdleCallback(handle);
  }
  const timer = setTimeout(task, 200);
  return () => clearTimeout(timer);
}
