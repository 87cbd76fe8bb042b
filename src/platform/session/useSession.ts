import useSWR, { type KeyedMutator } from 'swr';
import { callOperation } from '../../api/client';
import { parseSession, type Session } from './session';

export const SESSION_KEY = 'platform.session';

export type SessionLoad = { ok: true; session: Session } | { ok: false; code: string };

/** GET /ws/account/session, parsed. code UNAUTHENTICATED for 401, INVALID_RESPONSE when unusable. */
export async function loadSession(): Promise<SessionLoad> {
  const result = await callOperation('session');
  if (!result.ok) return { ok: false, code: result.status === 401 ? 'UNAUTHENTICATED' : result.code };
  const session = parseSession(result.data);
  return session ? { ok: true, session } : { ok: false, code: 'INVALID_RESPONSE' };
}

export interface UseSession {
  session: Session | undefined;
  /** A failure code (UNAUTHENTICATED, NETWORK_ERROR, HTTP_500 ...) once loading failed. */
  error: string | undefined;
  isLoading: boolean;
  reload: KeyedMutator<SessionLoad>;
}

/** The signed-in session, shared by every component (one request, cached by swr). */
export function useSession(): UseSession {
  const { data, isLoading, mutate } = useSWR(SESSION_KEY, loadSession, { revalidateOnFocus: false, shouldRetryOnError: false });
  return {
    session: data?.ok ? data.session : undefined,
    error: data && !data.ok ? data.code : undefined,
    isLoading,
    reload: mutate,
  };
}
