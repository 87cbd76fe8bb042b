import type { EngineHost } from '../host';

/** A screen's funnel reports (issue 38), each a no-op when the host records nothing. */
export interface ScreenFunnel {
  step(step: string): void;
  submit(): void;
  outcome(code: string): void;
  complete(): void;
  invalid(errors: ReadonlyArray<{ field: string; keyword: string }>): void;
}

/**
 * The events of one screen for the host's funnel: names, keywords and result codes only, never a
 * field's value (docs/editing-screens.md "What is recorded"). `step()` reads the current step.
 */
export function funnelOf(host: EngineHost, screen: string, current: () => string): ScreenFunnel {
  const send = host.funnel?.bind(host);
  if (!send) return { step: () => undefined, submit: () => undefined, outcome: () => undefined, complete: () => undefined, invalid: () => undefined };
  return {
    step: (step) => send({ kind: 'step', screen, step }),
    submit: () => send({ kind: 'submit', screen, step: current() }),
    outcome: (code) => send({ kind: 'outcome', screen, step: current(), code }),
    complete: () => send({ kind: 'complete', screen, step: current() }),
    invalid: (errors) => {
      for (const { field, keyword } of errors) send({ kind: 'fieldError', screen, step: current(), field, keyword });
    },
  };
}
