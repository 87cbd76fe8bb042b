import type { ComponentType } from 'react';
import { lazyPart } from '../../src/engine';
import type { ContentProps } from './content-props';
import type vocabulary from '../vocabulary.json';
// The passkey sign-in's few rules (0.2 kB brotli) with the entry's stylesheet, inline in the page: a
// stylesheet of its own was one more request when the part loads at idle (issue 39).
import './passkeySignIn/passkey-sign-in.css';

/**
 * Content components a screen may place with a block { "type": "component", "name": ... }:
 * behaviour that is not a form field (e.g. panels of the signed-in landing page). Each loads
 * lazily; the names are declared in widgets/vocabulary.json (content), which the catalogue check reads.
 * These are widgets/' own; a host adds those of other parts (the app: src/mfa's panel, src/app/content.ts).
 */
export type { ContentProps };

export type ContentName = keyof (typeof vocabulary)['content'];
export type ContentLoader = () => Promise<{ default: ComponentType<ContentProps> }>;

export const CONTENT_LOADERS = {
  // Platform modules (src/platform, docs/platform.md) on the signed-in landing page.
  sessionSummary: () => import('./sessionSummary/SessionSummary'),
  helpCenterLink: () => import('./helpCenterLink/HelpCenterLink'),
  ticketTimers: () => import('./ticketTimers/TicketTimers'),
  // Passkey sign-in on /login (docs/mfa.md).
  passkeySignIn: () => import('./passkeySignIn/PasskeySignIn'),
  // The account's passkeys after a password reset, each removable (docs/mfa.md).
  passkeyReview: () => import('./passkeyReview/PasskeyReview'),
} satisfies Partial<Record<ContentName, ContentLoader>>;

/** Parts the step does not wait for (they add nothing to a submit): loaded after the first paint (src/engine/lazy-part.tsx). */
const OPTIONAL: ReadonlySet<string> = new Set(['passkeySignIn']);

/** A host's content lookup over every name of the vocabulary: the lazily loaded component, or undefined for an unknown name. */
export function contentRegistry(loaders: Record<ContentName, ContentLoader>): (name: string) => ComponentType<ContentProps> | undefined {
  const cache = new Map<string, ComponentType<ContentProps>>();
  return (name) => {
    const load = Object.hasOwn(loaders, name) ? loaders[name as ContentName] : undefined;
    if (!load) return undefined;
    let component = cache.get(name);
    if (!component) {
      component = lazyPart<ContentProps>(name, load, { optional: OPTIONAL.has(name) });
      cache.set(name, component);
    }
    return component;
  };
}
