import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loaders } from '../generated/catalogue';
import type { ScreenModule } from './types';
import { ScreenRuntime } from './ScreenRuntime';
import { ChunkLoadError, loadChunk } from './chunk-load';

/** Loads a catalogue entry's chunk (screen file + precompiled validators) and runs it. */
export function ScreenRoute({ screenId, routeContext }: { screenId: string; routeContext?: Record<string, unknown> }) {
  const { t } = useTranslation();
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
  if (failed) {
    return (
      <div role="alert" className="fd-form-error">
        {t('common.errors.screenLoad')}{' '}
        <span className="fd-chunk-error">{t('common.errors.chunkLoad', { chunk: failed.chunk, type: failed.type, url: failed.url })}</span>{' '}
        <button type="button" className="fd-button fd-button--secondary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </button>
      </div>
    );
  }
  if (!module) return <p role="status" className="fd-loading">{t('common.loading')}</p>;
  return <ScreenRuntime module={module} routeContext={routeContext} />;
}
