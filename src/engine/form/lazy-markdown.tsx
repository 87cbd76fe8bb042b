import { lazy, Suspense, type ComponentProps } from 'react';
import type { Markdown as RealMarkdown } from 'markdown-to-jsx/react';

/**
 * Stands in for markdown-to-jsx's `Markdown` inside @rjsf/core (vite.config.ts redirects rjsf's
 * import here). rjsf imports it eagerly but renders it only for `enableMarkdownInDescription`/
 * `enableMarkdownInHelp` and for its own configuration errors; the parser is 120 kB, so it loads
 * on first use and the plain text shows meanwhile.
 */
const Real = lazy(() => import('markdown-to-jsx/react').then((m) => ({ default: m.Markdown })));

export function Markdown(props: ComponentProps<typeof RealMarkdown>) {
  return (
    <Suspense fallback={typeof props.children === 'string' ? props.children : null}>
      <Real {...props} />
    </Suspense>
  );
}
