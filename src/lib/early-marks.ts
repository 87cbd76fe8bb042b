/**
 * How src/early.ts (before the app) and the app's forms (src/engine/form/early-input.ts) speak about a
 * prerendered form, through attributes of the <form>: one list, used by both.
 */
export const EARLY_MARKS = {
  /** On a form whose submit the early script holds until the app is ready: data-fd-held. */
  held: 'fdHeld',
  /** On a form the app has taken over (its submits are the app's): data-fd-live. */
  live: 'fdLive',
  /** On a form that also works as a plain HTML form (the step's plainForm): data-fd-plain. */
  plain: 'fdPlain',
} as const;

/** How long a held submit of a plain form waits for the app before the browser posts it itself. */
export const HOLD_MS = 10_000;
