import type { OutcomePlan } from '../../../catalogue/language/outcomes';
import type { ResolvedText } from '../../../catalogue/language/scope';

/**
 * A screen's state as a typed reducer with named events (the runtime's effects dispatch them, the
 * view renders the state). Pure: the same state comes back when an event changes nothing, so React
 * skips the render (a key typed in a field no condition reads renders nothing here).
 */
export interface ScreenState {
  step: string;
  ctx: Record<string, unknown>;
  /** What the step's form starts with (schema defaults and initialData), read when it mounts. */
  initial: Record<string, unknown>;
  /** The values of the form fields that the step's conditions read: submits, blocks and the UI schema. */
  watched: Record<string, unknown>;
  /** The fields `watched` holds. */
  watchedFields: readonly string[];
  formError?: ResolvedText;
  formWarning?: ResolvedText;
  fieldErrors: Record<string, ResolvedText>;
  /** A call is in flight. */
  busy: boolean;
}

export type ScreenEvent =
  /** A call or a submit starts: the previous answer's errors go, the screen is busy. */
  | { type: 'started' }
  /** The call has settled (whatever its outcome did). */
  | { type: 'settled' }
  /** An outcome's state changes: context, errors; and with a step transition, the next step. */
  | { type: 'planned'; plan: OutcomePlan; next?: { step: string; initial: Record<string, unknown>; watchedFields: readonly string[] } }
  /** Context values set outside an outcome (a countdown). */
  | { type: 'assigned'; values: Record<string, unknown> }
  /** The form changed; only the watched fields matter here. */
  | { type: 'formChanged'; data: Record<string, unknown> }
  /** An error the engine itself raises (a redirect it refused). */
  | { type: 'failed'; error: ResolvedText };

export function pick(data: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(fields.map((field) => [field, data[field]]));
}

export function screenReducer(state: ScreenState, event: ScreenEvent): ScreenState {
  switch (event.type) {
    case 'started':
      return { ...state, busy: true, formError: undefined, formWarning: undefined, fieldErrors: {} };
    case 'settled':
      return state.busy ? { ...state, busy: false } : state;
    case 'assigned':
      return { ...state, ctx: { ...state.ctx, ...event.values } };
    case 'failed':
      return { ...state, formError: event.error };
    case 'formChanged':
      return state.watchedFields.every((field) => Object.is(state.watched[field], event.data[field]))
        ? state
        : { ...state, watched: pick(event.data, state.watchedFields) };
    case 'planned': {
      const { plan, next } = event;
      const shown = {
        formError: plan.error ?? (next ? undefined : state.formError),
        formWarning: plan.warning ?? (next ? undefined : state.formWarning),
        fieldErrors: plan.fieldErrors ?? (next ? {} : state.fieldErrors),
      };
      if (!next) return { ...state, ctx: plan.ctx, ...shown };
      // The next step starts clean but for what this outcome says about it, e.g. a field of an
      // earlier step that the server refused (marked there, and focused).
      return {
        ...state,
        ctx: plan.ctx,
        ...shown,
        step: next.step,
        initial: next.initial,
        watchedFields: next.watchedFields,
        watched: pick(next.initial, next.watchedFields),
      };
    }
  }
}

/** The state and its dispatch, readable at once by event handlers (no ref beside the state). */
export interface ScreenStore {
  get(): ScreenState;
  dispatch(event: ScreenEvent): void;
  subscribe(listener: () => void): () => void;
}

export function createScreenStore(initial: ScreenState): ScreenStore {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    get: () => state,
    dispatch(event) {
      const next = screenReducer(state, event);
      if (next === state) return;
      state = next;
      for (const listener of listeners) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
