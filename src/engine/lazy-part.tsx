import { Component, createElement, lazy, Suspense, type ComponentType, type ReactNode } from 'react';
import { ChunkFailure } from './ChunkFailure';
import { ChunkLoadError, loadChunk } from './chunk-load';
import { LoadingPart } from './readiness';

/** Shows a part's chunk failure in its place; other errors go on to the app's error boundary. */
class PartBoundary extends Component<{ children: ReactNode }, { failed?: unknown }> {
  override state: { failed?: unknown } = {};

  static getDerivedStateFromError(failed: unknown) {
    return { failed };
  }

  override render() {
    const { failed } = this.state;
    if (failed === undefined) return this.props.children;
    if (!(failed instanceof ChunkLoadError)) throw failed;
    // Still not ready: the step sends nothing without this part (Reload is the way on).
    return (
      <>
        <LoadingPart />
        <ChunkFailure error={failed} part />
      </>
    );
  }
}

/**
 * A lazily loaded part of a step (a custom widget, a content component, one of rjsf's deferred
 * fields or widgets), named `chunk` in a failure: while it loads the step is not ready
 * (readiness.tsx); if it cannot load, it says so in its place with Reload (ChunkFailure).
 */
export function lazyPart<P extends object>(chunk: string, load: () => Promise<{ default: ComponentType<P> }>): ComponentType<P> {
  const Lazy = lazy(() => loadChunk(chunk, load));
  return function LazyPart(props: P) {
    return createElement(PartBoundary, null, createElement(Suspense, { fallback: createElement(LoadingPart) }, createElement(Lazy, props)));
  };
}
