import { createContext, useCallback, useContext, useLayoutEffect, useRef, useState } from 'react';

/**
 * Whether a step's lazily loaded parts (custom widgets, rjsf parts, content components) have all
 * mounted. A part still loading shows `LoadingPart` as its Suspense fallback, which holds the step
 * "not ready" until it is replaced: the step's submit shows busy and nothing is sent meanwhile, so
 * a click before, say, the WebAuthn widget has mounted cannot post a request without its credential.
 * Hold and release happen in layout effects, before the browser paints or takes the next input.
 */
type Hold = () => () => void;

const ReadinessContext = createContext<Hold | null>(null);
export const ReadinessProvider = ReadinessContext.Provider;

/** The Suspense fallback of every lazy part: renders nothing, keeps the step not ready while shown. */
export function LoadingPart() {
  const hold = useContext(ReadinessContext);
  useLayoutEffect(() => hold?.(), [hold]);
  return null;
}

export interface StepReadiness {
  /** For rendering: no part is loading. */
  ready: boolean;
  /** For event handlers: the same, current even before the next render. */
  isReady(): boolean;
  /** Resolves once no part is loading (at once when none is): a widget's own submit waits for the step's other parts. */
  whenReady(): Promise<void>;
  /** What ReadinessProvider hands to the parts. */
  hold: Hold;
}

export function useStepReadiness(): StepReadiness {
  const loading = useRef(0);
  const waiting = useRef<(() => void)[]>([]);
  // Only whether any part is loading is state: a render that mounts a part's fallback again (Preact
  // does, when the step renders while the part is suspended: its new fallback holds before the old one
  // releases) changes no state, so it does not render the step again, and again.
  const [ready, setReady] = useState(true);
  const hold = useCallback<Hold>(() => {
    loading.current += 1;
    setReady(false);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      loading.current -= 1;
      setReady(loading.current === 0);
      if (loading.current === 0) waiting.current.splice(0).forEach((resolve) => resolve());
    };
  }, []);
  const isReady = useCallback(() => loading.current === 0, []);
  const whenReady = useCallback(() => (loading.current === 0 ? Promise.resolve() : new Promise<void>((resolve) => waiting.current.push(resolve))), []);
  return { ready, isReady, whenReady, hold };
}
