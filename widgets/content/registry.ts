import type { ComponentType } from 'react';
import { lazyPart } from '../../src/engine';
import type { ContentProps } from './content-props';
import type vocabulary from '../vocabulary.json';

/**
 * Content components a screen may place with a block { "type": "component", "name": ... }:
 * behaviour that is not a form field (e.g. panels of the signed-in landing page). Each loads
 * lazily; the names are declared in widgets/vocabulary.json (content), which the catalogue check reads.
 */
export type { ContentProps };

type Loader = () => Promise<{ default: ComponentType<ContentProps> }>;

const loaders: Record<keyof (typeof vocabulary)['content'], Loader> = {
  // Platform modules (src/platform, docs/platform.md) on the signed-in landing page.
  sessionSummary: () => import('./sessionSummary/SessionSummary'),
  helpCenterLink: () => import('./helpCenterLink/HelpCenterLink'),
  ticketTimers: () => import('./ticketTimers/TicketTimers'),
  // The Verify MFA modal (src/mfa, docs/mfa.md) shown working on the landing page.
  verifyMfa: () => import('./verifyMfa/VerifyMfa'),
  // Passkey sign-in on /login (docs/mfa.md).
  passkeySignIn: () => import('./passkeySignIn/PasskeySignIn'),
  // The account's passkeys after a password reset, each removable (docs/mfa.md).
  passkeyReview: () => import('./passkeyReview/PasskeyReview'),
};

/** Parts the step does not wait for (they add nothing to a submit): loaded after the first paint (src/engine/lazy-part.tsx). */
const OPTIONAL: ReadonlySet<string> = new Set(['passkeySignIn']);

const cache = new Map<string, ComponentType<ContentProps>>();

/** The lazily loaded component, or undefined for an unknown name. */
export function contentComponent(name: string): ComponentType<ContentProps> | undefined {
  const load = (loaders as Partial<Record<string, Loader>>)[name];
  if (!load) return undefined;
  let component = cache.get(name);
  if (!component) {
    component = lazyPart<ContentProps>(name, load, { optional: OPTIONAL.has(name) });
    cache.set(name, component);
  }
  return component;
}
