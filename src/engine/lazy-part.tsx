import { Component, createElement, lazy, Suspense, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import { ChunkFailure } from './ChunkFailure';
import { ChunkLoadError, loadChunk } from './chunk-load';
import { LoadingPart } from './readiness';

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
   * /login): its chunk starts loading only after the page has painted, the step is ready meanwhile,
   * and if the chunk cannot load the part is simply absent.
   */
  optional?: boolean;
}

/** Renders its children from the frame after the first paint on (an optional part's chunk waits for it). */
function AfterPaint({ children }: { children: ReactNode }) {
  const [painted, setPainted] = useState(false);
  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const frame = requestAnimationFrame(() => (timer = setTimeout(() => setPainted(true), 0)));
    return () => {
      cancelAnimationFrame(frame);
      clearTimeout(timer);
    };
  }, []);
  return painted ? children : null;
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
        AfterPaint,
        null,
        createElement(PartBoundary, { optional: true }, createElement(Suspense, { fallback: null }, createElement(Lazy, props))),
      );
    };
  return function LazyPart(props: P) {
    return createElement(PartBoundary, null, createElement(Suspense, { fallback: createElement(LoadingPart) }, createElement(Lazy, props)));
  };
}
