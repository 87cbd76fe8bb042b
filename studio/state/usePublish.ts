import { useEffect, useState } from 'react';
import type { PublishStatus } from '../../catalogue/studio-contract';
import { publishStatus } from '../api';

/** How often a running rebuild is asked how it went. */
const POLL_MS = 1000;

/** The rebuild of the running app after a save, followed while it runs. */
export function usePublish() {
  const [publish, setPublish] = useState<PublishStatus>();
  useEffect(() => {
    if (publish?.state !== 'running') return;
    const timer = setInterval(() => {
      publishStatus().then(setPublish, () => undefined);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [publish?.state]);
  return { publish, setPublish };
}
