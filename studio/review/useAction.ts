import { useCallback, useState } from 'react';
import { errorWords } from './words';

/**
 * One action of a review view at a time (approve, send back, roll back…): which one runs (`busy`, for
 * its button), and what the last one did: the text `work` resolves to, or its refusal in the studio's words.
 */
export function useAction<Key>() {
  const [busy, setBusy] = useState<Key>();
  const [error, setError] = useState<string>();
  const [done, setDone] = useState<string>();
  // Stable, so effects that report a failed load may depend on it.
  const fail = useCallback((e: unknown) => setError(errorWords(e)), []);
  const run = async (key: Key, work: () => Promise<string>) => {
    setBusy(key);
    setError(undefined);
    setDone(undefined);
    try {
      setDone(await work());
    } catch (e) {
      setError(errorWords(e));
    } finally {
      setBusy(undefined);
    }
  };
  return { busy, error, done, run, fail };
}
