import { useCallback, useEffect, useState } from 'react';
import type { SessionAnswer } from '../../catalogue/studio-contract';
import { signOut as endSession, whenSignedOut, whoAmI } from '../api';

/** Who uses the studio (GET /dev/studio/api/me): unknown while asked; asked again when the server no longer admits the person. */
export function useSession() {
  const [session, setSession] = useState<SessionAnswer>();
  const [error, setError] = useState<string>();
  const ask = useCallback(() => {
    whoAmI().then(setSession, (e: unknown) => setError(String(e)));
  }, []);
  useEffect(() => {
    whenSignedOut(ask);
    ask();
  }, [ask]);
  const signOut = useCallback(async () => {
    await endSession().catch(() => undefined);
    ask();
  }, [ask]);
  return { session, error, signOut };
}
