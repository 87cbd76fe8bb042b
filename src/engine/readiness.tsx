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
  /** What ReadinessProvider hands to the parts. */
  hold: Hold;
}

export function useStepReadiness(): StepReadiness {
  const loading = useRef(0);
  const [count, setCount] = useState(0);
  const hold = useCallback<Hold>(() => {
    loading.current += 1;
    setCount(loading.current);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      loading.current -= 1;
      setCount(loading.current);
    };
  }, []);
  const isReady = useCallback(() => loading.current === 0, []);
  return { ready: count === 0, isReady, hold };
}
