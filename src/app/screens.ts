import type { ScreenModule } from '../engine';
import { loaders } from '../generated/catalogue';

/**
 * The screen modules (screen file and precompiled validators, one chunk each), loaded once: a screen
 * loaded before the first render (src/main.tsx waits for the first route's) renders at once, which
 * is what hydrating the server's page of it needs (the same markup on the first render).
 */
const loaded = new Map<string, ScreenModule>();
const loadFns = new Map<string, () => Promise<ScreenModule>>();

/** The loader of a screen's chunk (the same function each time: ScreenRoute loads again when it changes). */
export function screenLoader(screenId: string): (() => Promise<ScreenModule>) | undefined {
  const load = loaders[screenId];
  if (!load) return undefined;
  let fn = loadFns.get(screenId);
  if (!fn) {
    fn = () =>
      load().then((module) => {
        loaded.set(screenId, module);
        return module;
      });
    loadFns.set(screenId, fn);
  }
  return fn;
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
