import { useTranslation } from '../lib/i18n';
import { Alert, Button, Card } from '../ui';
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
      <Button variant={part ? 'secondary' : 'primary'} block={!part} className="fd-failure__reload" onClick={() => window.location.reload()}>
        {t('common.reload')}
      </Button>
      <p className="fd-failure__detail">{t('common.errors.chunkLoad', { chunk: error.chunk, type: error.type, url: error.url })}</p>
    </>
  );
  if (part) {
    return (
      <Alert kind="error" role="alert" className="fd-failure fd-failure--part">
        {body}
      </Alert>
    );
  }
  return (
    <Card role="alert" className="fd-failure" heading={t('common.errors.screenLoad')} icon="error">
      {body}
    </Card>
  );
}
