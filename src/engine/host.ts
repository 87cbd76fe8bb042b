import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { RegistryWidgetsType } from '@rjsf/utils';
import type { ScreenApi } from './runtime-api';

/**
 * Everything the engine needs from the application around it, injected (DESIGN: "the engine knows
 * the app only through an injected host"). The app (src/app/engine-host.tsx), the dev studio's
 * preview and the Verify MFA modal (src/mfa) each provide one; the engine imports none of them, nor
 * the widgets (docs/architecture.md, enforced by dependency-cruiser).
 *
 * The names are the host's: which actions, '$name' flags, '$env/name' sources, widgets and content
 * components exist, what the query string and a sign-in's answer hold. Each host declares its names
 * in a vocabulary file (src/app/vocabulary.json, src/mfa/vocabulary.json, widgets/vocabulary.json)
 * that the catalogue check reads; the engine passes names through and fails loudly on an unknown one.
 */
export interface EngineHost {
  /** Shows a message in the host's message bar. */
  showMessage(message: HostMessage): void;
  /** Goes to another route of the app. */
  navigate(to: string, options?: { state?: Record<string, unknown>; replace?: boolean }): void;
  /** A link to a route of the app (a { "type": "link", "to": ... } block). */
  Link: ComponentType<{ to: string; className?: string; children: ReactNode }>;
  /** A URL the server or the catalogue names, when it is safe to open (a same-site path, or http(s) without credentials). */
  checkUrl(raw: unknown): string | undefined;
  /** Leaves the app for a URL that checkUrl accepted. */
  leave(url: string): void;
  /** After a sign-in: where the visitor goes, from the screen's query string and the call's answer. */
  authenticate(signIn: { query: Readonly<Record<string, string>>; response: unknown }): Promise<void>;
  /** Sends a failed call to error reporting (the host filters what is never reported). */
  report(report: { operation?: string; code: string; status: number; incidentId?: string }): void;
  /** Sets the page title for a screen's title key (a host inside a page, like a modal, does nothing). */
  useTitle(titleKey: string): void;
  /** What '$name' conditions read. */
  flags: Readonly<Record<string, boolean>>;
  /** What '$env/name' sources read, for a screen opened with this query string. */
  env(query: Readonly<Record<string, string>>): Readonly<Record<string, unknown>>;
  /** Custom rjsf widgets by the names screens use in "ui:widget". */
  widgets: RegistryWidgetsType;
  /** A content component of a { "type": "component" } block, or undefined for an unknown name. */
  content(name: string): ComponentType<ScreenApi> | undefined;
  /** Implementations of the named actions outcomes list (those this host's screens use; another name fails loudly). */
  actions: Readonly<Record<string, (response: unknown) => void | Promise<void>>>;
  /** Calls a server operation by name; every answer, transport failures included, is a result code. */
  call(operation: string, body: Record<string, unknown>, options: HostCallOptions): Promise<HostCallResult>;
  /**
   * Resolves once the host's texts are all loaded, when it starts with some (a prerendered page loads
   * those its first state shows, src/app/i18n.ts): a form waits for it before it validates, so its
   * messages are there.
   */
  textsReady?(): Promise<void>;
  /**
   * Starts loading what a call's outcomes can lead to, while the call is in flight (the engine asks as
   * each call starts, runtime/prefetch.ts): the screens of those paths and, when one can end a sign-in,
   * what `authenticate` needs. Never awaited; a host swallows its own failures (the chunk fails again,
   * with its usual report, where it is used). Optional: a host without it loads on arrival.
   */
  prefetch?(targets: PrefetchTargets): void;
  /**
   * Takes a funnel event (issue 38: docs/editing-screens.md "What is recorded"): names and codes only,
   * never a value. Never awaited; optional (a host without it records nothing).
   */
  funnel?(event: FunnelEvent): void;
}

/** What the engine reports of a screen: a step shown, a field's failed keyword, a submit, its result code, the screen left forward. */
export type FunnelEvent =
  | { kind: 'step'; screen: string; step: string }
  | { kind: 'fieldError'; screen: string; step: string; field: string; keyword: string }
  | { kind: 'submit'; screen: string; step: string }
  | { kind: 'outcome'; screen: string; step: string; code: string }
  | { kind: 'complete'; screen: string; step: string };

/** What a call's outcomes can lead to (EngineHost.prefetch). */
export interface PrefetchTargets {
  /** Navigate targets as the catalogue writes them ('/resetPassword/{verificationCode}': placeholders kept), each once, a handful at most. */
  paths: string[];
  /** Whether an outcome can end the sign-in (host.authenticate). */
  authenticate: boolean;
}

export interface HostMessage {
  key: string;
  values: Record<string, unknown>;
  kind: 'success' | 'info' | 'warning' | 'error';
  permanent: boolean;
}

export interface HostCallOptions {
  /** Where the result code sits in the answer (default /resultCode). */
  resultFrom?: string;
  /** The bot-check action name, when the server demands a token. */
  botCheckAction?: string;
  /** Retry transport failures this often (ms). */
  retryEveryMs?: number;
  signal?: AbortSignal;
}

export interface HostCallResult {
  code: string;
  status: number;
  data: unknown;
}

const HostContext = createContext<EngineHost | null>(null);
export const EngineHostProvider = HostContext.Provider;

/** The host around, if any (the Verify MFA modal builds on the app's when there is one). */
export function useOptionalEngineHost(): EngineHost | null {
  return useContext(HostContext);
}

export function useEngineHost(): EngineHost {
  const host = useContext(HostContext);
  if (!host) throw new Error('No EngineHost: render screens inside <EngineHostProvider>');
  return host;
}
