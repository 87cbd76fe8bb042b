import type { ReactNode } from 'react';
import type { EngineHost } from '../engine';
import { hostBase, SAFE_FACTS, siteFlags } from '../host/host-base';

/**
 * The Verify MFA modal's host when the page around it is not the front door's app (another product
 * mounts the modal): the app's widgets and operation client, the safe production flags, links and
 * navigation as plain page loads, no content components (the modal's screen shows none). Inside the
 * app, the modal builds on the app's host instead.
 */
export function standaloneHost(): EngineHost {
  return hostBase({
    showMessage: () => undefined,
    navigate: (to) => window.location.assign(to),
    Link: ({ to, className, children }: { to: string; className?: string; children: ReactNode }) => (
      <a href={to} className={className}>
        {children}
      </a>
    ),
    flags: siteFlags(SAFE_FACTS),
    // Only origin and host: the modal's screen reads no return target or language from the page.
    env: () => ({ origin: window.location.origin, brandingHostname: window.location.hostname }),
    // The modal's calls (switchMfaSession, verifyMfaSession) take no bot-check token.
    botCheck: { provider: 'altcha' },
  });
}
