import { useCallback, useEffect, useState } from 'react';
import type { Person } from '../../catalogue/studio-contract';
import { signOut as endSession, whenSignedOut, whoAmI } from '../api';

/** Who uses the studio: unknown while asked, null when nobody is signed in. */
export function useSession() {
  const [person, setPerson] = useState<Person | null>();
  const [error, setError] = useState<string>();
  useEffect(() => {
    whenSignedOut(() => setPerson(null));
    whoAmI().then(
      (answer) => setPerson(answer.person),
      (e: unknown) => setError(String(e)),
    );
  }, []);
  const signOut = useCallback(async () => {
    await endSession().catch(() => undefined);
    setPerson(null);
  }, []);
  return { person, error, signedIn: setPerson, signOut };
}
