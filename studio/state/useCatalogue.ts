import { useCallback, useEffect, useState } from 'react';
import type { CatalogueTexts } from '../../catalogue/studio-contract';
import { loadCatalogue } from '../api';

/** The catalogue's files as the server last gave them: loaded again after a publish or a rollback. */
export function useCatalogue() {
  const [catalogue, setCatalogue] = useState<CatalogueTexts>();
  const [loadError, setLoadError] = useState<string>();
  const reload = useCallback(() => {
    loadCatalogue().then(setCatalogue, (error: unknown) => setLoadError(String(error)));
  }, []);
  useEffect(reload, [reload]);
  return { catalogue, loadError, reload };
}
