import { useEffect, useState } from 'react';
import type { ScreenEntry, ScreenModule } from './types';
import { ScreenRuntime } from './ScreenRuntime';
import { ChunkLoadError, loadChunk } from './chunk-load';
import { ChunkFailure } from './ChunkFailure';
import { LoadingCard } from './LoadingCard';

export interface ScreenRouteProps {
  /** The screen's id (its chunk's name in a failure). */
  screenId: string;
  load: () => Promise<ScreenModule>;
  /** The module, when its chunk has loaded already: the screen renders at once (as the server's prerendered page shows it). */
  loaded?: ScreenModule;
  /** The heading and layout of the card shown while the chunk loads. */
  title: string;
  layout?: 'card' | 'wide';
  entry: ScreenEntry;
}

/** Loads a screen's chunk (screen file + precompiled validators) and runs it. */
export function ScreenRoute({ screenId, load, loaded, title, layout, entry }: ScreenRouteProps) {
  const [module, setModule] = useState<ScreenModule | undefined>(loaded);
  const [failed, setFailed] = useState<ChunkLoadError>();
  const ready = module !== undefined;
  useEffect(() => {
    if (ready) return;
    let live = true;
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
  }, [screenId, load, ready]);
  if (failed) return <ChunkFailure error={failed} />;
  if (!module) return <LoadingCard title={title} layout={layout} />;
  return <ScreenRuntime module={module} entry={entry} />;
}
