import type { CallSpec, Outcome } from './types';

/**
 * What widgets and content components may ask of the screen that hosts them (rjsf passes it as
 * formContext; content components get it as props). Behaviour stays in the catalogue: a widget
 * runs a call or an outcome the screen file names, it does not invent its own routing.
 */
export interface ScreenApi {
  /** The screen context (read-only), e.g. the MFA props from the state parameter. */
  ctx: Readonly<Record<string, unknown>>;
  /** Runs an operation with its outcome table, like a submit (busy state included). */
  runCall(call: CallSpec): Promise<void>;
  /** Runs an outcome (navigate, message, assign ...) without a call. */
  runOutcome(outcome: Outcome): Promise<void>;
  /** Submits the current step's form with extra values merged in (e.g. a WebAuthn credential). */
  submit(extra?: Record<string, unknown>): Promise<void>;
  /** What the current step's fields hold now (e.g. the email a passkey request may name). */
  data(): Record<string, unknown>;
  /** Whether a call is in flight. */
  busy: boolean;
  /**
   * Registers submit-time work of a widget (e.g. a WebAuthn registration): it runs after the form
   * validated, before the call, and returns values to merge into the form, or undefined to cancel.
   * Returns the function that unregisters it. Optional: hosts other than a screen (tests) may lack it.
   */
  beforeSubmit?(hook: BeforeSubmitHook): () => void;
}

export type BeforeSubmitHook = (form: Record<string, unknown>) => Promise<Record<string, unknown> | undefined>;
