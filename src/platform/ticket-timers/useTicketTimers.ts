import { useCallback, useEffect, useState } from 'react';
import { clearTicket, readAllTimers, startTimer, stopTimer, TICKET_KEY_PREFIX, type TicketTimer, type TimerStorage } from './timers';

function browserStorage(): TimerStorage | null {
  try {
    return typeof window !== 'undefined' ? window.localStorage : null;
  } catch {
    return null;
  }
}

export interface UseTicketTimers {
  timers: TicketTimer[];
  /** Current time, ticking every tickMs while a timer runs. */
  now: number;
  start(id: string | number): void;
  stop(id: string | number): void;
  remove(id: string | number): void;
  /** false when localStorage is unavailable (private mode, disabled). */
  available: boolean;
}

/** The stored ticket timers, kept in step with other tabs (storage events). */
export function useTicketTimers(options: { storage?: TimerStorage | null; tickMs?: number; ttlMs?: number } = {}): UseTicketTimers {
  const storage = options.storage === undefined ? browserStorage() : options.storage;
  const tickMs = options.tickMs ?? 1000;
  const [now, setNow] = useState(() => Date.now());
  const [timers, setTimers] = useState<TicketTimer[]>(() => (storage ? readAllTimers(storage) : []));

  const refresh = useCallback(() => {
    const t = Date.now();
    setNow(t);
    setTimers(storage ? readAllTimers(storage, t) : []);
  }, [storage]);

  useEffect(() => {
    const onStorage = (event: StorageEvent) => {
      if (event.key === null || event.key.startsWith(TICKET_KEY_PREFIX)) refresh();
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [refresh]);

  const running = timers.some((timer) => timer.timerSets.some((set) => set.stop === null));
  useEffect(() => {
    if (!running) return undefined;
    const handle = setInterval(() => setNow(Date.now()), tickMs);
    return () => clearInterval(handle);
  }, [running, tickMs]);

  const act = useCallback(
    (fn: (s: TimerStorage) => void) => {
      if (!storage) return;
      fn(storage);
      refresh();
    },
    [storage, refresh],
  );

  return {
    timers,
    now,
    available: storage !== null,
    start: (id) => act((s) => startTimer(s, id, Date.now(), options.ttlMs)),
    stop: (id) => act((s) => stopTimer(s, id, Date.now(), options.ttlMs)),
    remove: (id) => act((s) => clearTicket(s, id)),
  };
}
