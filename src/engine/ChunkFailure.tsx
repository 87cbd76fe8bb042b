import { useTranslation } from 'react-i18next';
import type { ChunkLoadError } from './chunk-load';

/**
 * A piece of code that did not load (a screen's chunk, or a widget's): a sentence a person
 * understands and Reload, with SPEC §2's 'Loading chunk N failed (type: address)' as a small detail
 * that wraps on a phone. A screen's failure takes the card; a widget's (`part`) its place in the form.
 */
export function ChunkFailure({ error, part = false }: { error: ChunkLoadError; part?: boolean }) {
  const { t } = useTranslation();
  const body = (
    <>
      <p className="fd-failure__text">{t(part ? 'common.errors.partLoad' : 'common.errors.screenLoadHelp')}</p>
      <button type="button" className="fd-button fd-button--primary fd-failure__reload" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </button>
      <p className="fd-failure__detail">{t('common.errors.chunkLoad', { chunk: error.chunk, type: error.type, url: error.url })}</p>
    </>
  );
  if (part) {
    return (
      <div role="alert" className="fd-failure fd-failure--part">
        {body}
      </div>
    );
  }
  return (
    <section role="alert" className="fd-screen fd-screen--card fd-failure">
      <h1 className="fd-screen__title">{t('common.errors.screenLoad')}</h1>
      {body}
    </section>
  );
}
