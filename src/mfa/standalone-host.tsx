import type { ReactNode } from 'react';
import type { EngineHost } from '../engine/host';
import { operationCaller } from '../api/operation-caller';
import { reportFailure } from '../api/report';
import { serverRedirectUrl } from '../app/redirects';
import { widgets } from '../../widgets/registry';
import { contentComponent } from '../../widgets/content/registry';

/**
 * The Verify MFA modal's host when the page around it is not the front door's app (another product
 * mounts the modal): the same registries and operation client, links and navigation as plain page
 * loads. Inside the app, the modal builds on the app's host instead.
 */
export function standaloneHost(): EngineHost {
  return {
    showMessage: () => undefined,
    navigate: (to) => window.location.assign(to),
    Link: ({ to, className, children }: { to: string; className?: string; children: ReactNode }) => (
      <a href={to} className={className}>
        {children}
      </a>
    ),
    checkUrl: (raw) => serverRedirectUrl(raw, window.location.origin),
    leave: (url) => window.location.assign(url),
    authenticate: async () => undefined,
    report: reportFailure,
    useTitle: () => undefined,
    flags: { branded: false, production: true, selfRegistrationEnabled: false, expiredTrialCookie: false },
    env: () => ({ origin: window.location.origin, brandingHostname: window.location.hostname }),
    widgets,
    content: contentComponent,
    actions: {},
    // The modal's calls (switchMfaSession, verifyMfaSession) take no bot-check token.
    call: operationCaller({ provider: 'altcha' }),
  };
}
