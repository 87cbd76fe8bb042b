import type { VNode } from 'preact';
import { renderToStringAsync } from 'preact-render-to-string';

/**
 * `react-dom/static`'s `prerender` for the prerenderer's build, where react is Preact (vite.config.ts
 * aliases it here): the whole page once every lazy part has resolved, as React's does, rendered by
 * Preact's server renderer so that its markup (useId's ids included) is what the browser's Preact
 * hydrates. Rendered twice: the first render waits for lazy parts and marks each boundary that
 * waited (`<!--$s-->`); the second, with every part loaded, is the same page without those marks,
 * so a page's markup does not depend on what was rendered before it (scripts/prerender.ts compares
 * pages to find what they depend on).
 */
export async function prerender(node: VNode): Promise<{ prelude: ReadableStream<Uint8Array> }> {
  await renderToStringAsync(node);
  const html = await renderToStringAsync(node);
  return { prelude: new Blob([html]).stream() };
}
