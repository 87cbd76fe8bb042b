import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { loaders } from '../generated/catalogue';
import type { ScreenModule } from './types';
import { ScreenRuntime } from './ScreenRuntime';

/** Loads a catalogue entry's chunk (screen file + precompiled validators) and runs it. */
export function ScreenRoute({ screenId, routeContext }: { screenId: string; routeContext?: Record<string, unknown> }) {
  const { t } = useTranslation();
  const [module, setModule] = useState<ScreenModule>();
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    let live = true;
    const load = loaders[screenId];
    if (!load) throw new Error(`Unknown screen "${screenId}"`);
    load().then(
      (loaded) => live && setModule(loaded),
      (error: unknown) => {
        console.error(error);
        if (live) setFailed(true);
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
        <button type="button" className="fd-button fd-button--secondary" onClick={() => window.location.reload()}>
          {t('common.reload')}
        </button>
      </div>
    );
  }
  if (!module) return <p role="status" className="fd-loading">{t('common.loading')}</p>;
  return <ScreenRuntime module={module} routeContext={routeContext} />;
}
