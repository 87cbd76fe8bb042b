import { useEffect, useState } from 'react';
import { loaders, type CatalogueRoute } from '../generated/catalogue';
import type { ScreenModule } from './types';
import { ScreenRuntime } from './ScreenRuntime';
import { ChunkLoadError, loadChunk } from './chunk-load';
import { ChunkFailure } from './ChunkFailure';
import { LoadingCard } from './LoadingCard';

/** Loads a catalogue entry's chunk (screen file + precompiled validators) and runs it. */
export function ScreenRoute({ route }: { route: CatalogueRoute }) {
  const { screenId } = route;
  const [module, setModule] = useState<ScreenModule>();
  const [failed, setFailed] = useState<ChunkLoadError>();
  useEffect(() => {
    let live = true;
    const load = loaders[screenId];
    if (!load) throw new Error(`Unknown screen "${screenId}"`);
    loadChunk(screenId, load).then(
      (loaded) => live && setModule(loaded),
      (error: unknown) => {
        console.error(error);
        if (live) setFailed(error instanceof ChunkLoadError ? error : new ChunkLoadError(screenId, 'other', screenId));
      },
    );
    return () => {
      live = false;
    };
  }, [screenId]);
  if (failed) return <ChunkFailure error={failed} />;
  if (!module) return <LoadingCard title={route.title} layout={route.layout} />;
  return <ScreenRuntime module={module} routeContext={route.context} />;
}
