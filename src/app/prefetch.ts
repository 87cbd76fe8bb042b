import type { PrefetchTargets, ScreenModule } from '../engine';
import { routeMatches } from '../../catalogue/language/routes';
import { preloadWidget } from '../../widgets/registry';
import { routes } from '../generated/catalogue';
import { prefetchScreen } from './screens';

/** The custom widgets the screen first shows (its first step's "ui:widget" names; rjsf's own load nothing). */
function firstWidgets(module: ScreenModule): string[] {
  const { screen } = module;
  const uiSchema = Object.hasOwn(screen.steps, screen.initialStep) ? screen.steps[screen.initialStep]?.uiSchema : undefined;
  const names = Object.values(uiSchema ?? {}).map((node) =>
    node !== null && typeof node === 'object' ? (node as Record<string, unknown>)['ui:widget'] : undefined,
  );
  return [...new Set(names.filter((name): name is string => typeof name === 'string'))];
}

/**
 * The app host's prefetch (EngineHost.prefetch): while a call is in flight, the screens its outcomes
 * can open (the route table picks each path's screen), then the widgets those screens first show,
 * and the post-sign-in module when an outcome can end the sign-in. Each loads once (the browser keeps
 * a loaded module; ./screens.ts keeps the screen); nothing here fails anything: a chunk that cannot
 * load now is loaded again, and reported as usual, where it is used.
 */
export function prefetch({ paths, authenticate }: PrefetchTargets): void {
  const screens = new Set(paths.flatMap((path) => routes.find((route) => routeMatches(route.path, path))?.screenId ?? []));
  for (const screenId of screens) {
    if (warming.has(screenId)) continue;
    warming.add(screenId);
    void prefetchScreen(screenId)
      .then((module) => {
        if (!module) return void warming.delete(screenId);
        return Promise.all(firstWidgets(module).map((name) => preloadWidget(name).catch(ignore)));
      })
      .catch(ignore);
  }
  if (authenticate) void import('./after-sign-in').catch(ignore);
}

/** The screens being or already warmed (a screen that failed to load leaves, so a later call tries again). */
const warming = new Set<string>();
const ignore = () => undefined;
