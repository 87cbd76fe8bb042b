import type { ScreenModule } from '../engine';
import { loaders } from '../generated/catalogue';
import { allTexts } from './i18n';

/**
 * The screen modules (screen file and precompiled validators, one chunk each), loaded once: a screen
 * loaded before the first render (src/main.tsx waits for the first route's) renders at once, which
 * is what hydrating the server's page of it needs (the same markup on the first render).
 */
const loaded = new Map<string, ScreenModule>();
const loadFns = new Map<string, () => Promise<ScreenModule>>();

/** A screen's chunk, loaded once and remembered (the page's first screen: src/main.tsx, before its first render). */
export function preloadScreen(screenId: string): Promise<ScreenModule> | undefined {
  const load = loaders[screenId];
  return load?.().then((module) => {
    loaded.set(screenId, module);
    return module;
  });
}

/**
 * The loader of a screen's chunk for ScreenRoute (the same function each time: it loads again when it
 * changes). It also waits for all texts of the language: a page starts with those of its first screen.
 */
export function screenLoader(screenId: string): (() => Promise<ScreenModule>) | undefined {
  if (!loaders[screenId]) return undefined;
  let fn = loadFns.get(screenId);
  if (!fn) {
    fn = async () => {
      const [module] = await Promise.all([preloadScreen(screenId), allTexts()]);
      if (!module) throw new Error(`Unknown screen "${screenId}"`);
      return module;
    };
    loadFns.set(screenId, fn);
  }
  return fn;
}

const prefetching = new Map<string, Promise<ScreenModule | undefined>>();

/**
 * Starts loading a screen the visitor may open next (./prefetch.ts): its chunk and all texts, each
 * once; only with both in does it count as loaded (it then renders at once, without its loading card).
 * A failure is forgotten, not remembered: opening the screen loads it again, and reports it as usual.
 */
export function prefetchScreen(screenId: string): Promise<ScreenModule | undefined> {
  const load = loaders[screenId];
  if (!load) return Promise.resolve(undefined);
  const known = loaded.get(screenId);
  if (known) return Promise.resolve(known);
  let pending = prefetching.get(screenId);
  if (!pending) {
    pending = Promise.all([load(), allTexts()]).then(
      ([module]) => {
        loaded.set(screenId, module);
        return module;
      },
      () => undefined,
    );
    prefetching.set(screenId, pending);
    void pending.finally(() => prefetching.delete(screenId));
  }
  return pending;
}

let held = false;

/** The screen's module when its chunk has already loaded. */
export function loadedScreen(screenId: string): ScreenModule | undefined {
  return held ? undefined : loaded.get(screenId);
}

/** The build's prerendering of a route's loading page (the screen's card while its chunk loads): no screen counts as loaded. */
export function holdScreens(hold: boolean): void {
  held = hold;
}
