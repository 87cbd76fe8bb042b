import { Component, createElement, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { ChunkFailure } from './ChunkFailure';
import { ChunkLoadError, loadChunk } from './chunk-load';
import { LoadingPart } from './readiness';
import { whenIdle } from '../lib/idle';

/** Shows a part's chunk failure in its place (an optional part: nothing); other errors go on to the app's error boundary. */
class PartBoundary extends Component<{ children?: ReactNode; optional?: boolean }, { failed?: unknown }> {
  override state: { failed?: unknown } = {};

  static getDerivedStateFromError(failed: unknown) {
    return { failed };
  }

  override render() {
    const { failed } = this.state;
    if (failed === undefined) return this.props.children;
    if (!(failed instanceof ChunkLoadError)) throw failed;
    if (this.props.optional) return null;
    // Still not ready: the step sends nothing without this part (Reload is the way on).
    return (
      <>
        <LoadingPart />
        <ChunkFailure error={failed} part />
      </>
    );
  }
}

export interface LazyPartOptions {
  /**
   * The step does not wait for it, because it adds nothing to a submit (e.g. the passkey sign-in on
   * /login): its chunk starts loading only once the page is idle (after it has taken its form over) or
   * a field is focused, the step is ready meanwhile, and if the chunk cannot load the part is simply absent.
   */
  optional?: boolean;
}

/**
 * Renders its children once the page is idle (src/lib/idle.ts), or sooner when the visitor moves the
 * focus into the page (the passkey autofill's request must be pending when the email field's list opens).
 * Its effect runs after hydration's commit, so an optional part never competes with hydrating.
 */
function WhenIdle({ children }: { children: ReactNode }) {
  const [idle, setIdle] = useState(false);
  useEffect(() => {
    const start = () => setIdle(true);
    document.addEventListener('focusin', start, { once: true });
    const cancel = whenIdle(start);
    return () => {
      cancel();
      document.removeEventListener('focusin', start);
    };
  }, []);
  return idle ? children : null;
}

/**
 * A lazily loaded part of a step (a custom widget, a content component, one of rjsf's deferred
 * fields or widgets), named `chunk` in a failure: while it loads the step is not ready
 * (readiness.tsx); if it cannot load, it says so in its place with Reload (ChunkFailure).
 * `optional` parts differ (LazyPartOptions).
 */
export function lazyPart<P extends object>(chunk: string, load: () => Promise<{ default: ComponentType<P> }>, options: LazyPartOptions = {}): ComponentType<P> {
  const Lazy = lazy(() => loadChunk(chunk, load));
  if (options.optional)
    return function OptionalPart(props: P) {
      return createElement(
        WhenIdle,
        null,
        createElement(PartBoundary, { optional: true }, createElement(Suspense, { fallback: null }, createElement(Lazy, props))),
      );
    };
  return function LazyPart(props: P) {
    return createElement(PartBoundary, null, createElement(Suspense, { fallback: createElement(LoadingPart) }, createElement(Lazy, props)));
  };
}
