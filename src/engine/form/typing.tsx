import { createContext, useContext, useEffect, useId, useRef, useState, type ComponentPropsWithRef, type RefObject } from 'react';
import { EARLY_MARKS } from '../../lib/early-marks';

/**
 * Typing that paints at once. A change to rjsf's data re-derives the form's state and re-renders
 * every field: on a slow phone that is several frames per keystroke. So a field shows what was typed
 * from its own state (an urgent render of one input) and, once that frame is painted, hands the
 * latest value to rjsf; keys typed meanwhile are handed over once.
 *
 * What reads the data at once must see what the fields show, whatever React has rendered by then: a
 * submit (`GuardedForm`) hands the latest typed value of every typed field to rjsf again, urgently,
 * in the submit event itself. rjsf applies queued changes in order, and an urgent change is never
 * skipped for the urgent submit that follows it (a hand-over after the paint is a default-priority
 * update, which a submit's render may skip), so the submit validates and sends exactly what is on
 * screen. The field's blur does the same for its own value, and `overlay` gives buttons beside the form
 * the same view of the data.
 */
interface TypedField {
  /** The field's name in the form data. */
  name: string;
  /** Whether the visitor typed in it since it mounted or was last set by the step. */
  typed(): boolean;
  /** The latest value typed. */
  value(): unknown;
  /** Hands the latest typed value to rjsf now, urgently. */
  handOver(): void;
  /** Forgets what was typed: a programmatic change of the field wins. */
  discard(): void;
}

export class PendingChanges {
  private readonly fields = new Map<string, TypedField>();

  /** A typed field mounted (`id` is its own, `field.name` its name in the form data). */
  register(id: string, field: TypedField): () => void {
    this.fields.set(id, field);
    return () => {
      if (this.fields.get(id) === field) this.fields.delete(id);
    };
  }

  /** `data` with what the typed fields show (a button beside the form reads it). */
  overlay(data: Record<string, unknown>): Record<string, unknown> {
    let out = data;
    for (const field of this.fields.values()) {
      if (!field.typed()) continue;
      if (out === data) out = { ...data };
      const value = field.value();
      if (value === undefined) delete out[field.name];
      else out[field.name] = value;
    }
    return out;
  }

  /** Hands every typed value to rjsf, in the caller's event (a submit). */
  flush(): void {
    for (const field of [...this.fields.values()]) if (field.typed()) field.handOver();
  }

  /** Forgets what was typed in these form fields (the step sets or clears them itself). */
  discard(names: string[]): void {
    for (const field of this.fields.values()) if (names.includes(field.name)) field.discard();
  }
}

const PendingContext = createContext<PendingChanges | null>(null);
export const PendingChangesProvider = PendingContext.Provider;

/** Runs `run` in a task after the next frame is painted (or soon, when no frame comes: a hidden tab). */
function afterPaint(run: () => void): void {
  let ran = false;
  const once = () => {
    if (ran) return;
    ran = true;
    run();
  };
  const fallback = setTimeout(once, 100);
  if (typeof requestAnimationFrame !== 'function' || document.visibilityState === 'hidden') return;
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      clearTimeout(fallback);
      once();
    };
    channel.port2.postMessage(undefined);
  });
}

export interface TypedValue<V> {
  /** What the input shows. */
  shown: V;
  /** Call on every input event. */
  change(next: V): void;
  /** Hands a value still in flight to rjsf now (before the field's blur is reported, say). */
  flush(): void;
}

/**
 * The value a text field shows and its change handler; `name` is the field's name in the form data.
 * Outside a FormStep (no PendingChanges), changes go to rjsf directly.
 */
export function useTypedValue<V>(name: string, value: V, onChange: (next: V) => void): TypedValue<V> {
  const pending = useContext(PendingContext);
  const field = useId();
  const [typed, setTyped] = useState(value);
  // Scheduled hand-overs not yet committed; each counts itself down in the update that hands over.
  const [inFlight, setInFlight] = useState(0);
  // The latest typed value and its number, the number of the last value rjsf was given, and whether
  // the visitor typed since the step last set the field.
  const latest = useRef({ seq: 0, value, handed: 0, typed: false });
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;

  const handOver = () => {
    const now = latest.current;
    if (now.handed >= now.seq) return;
    now.handed = now.seq;
    onChangeRef.current(now.value);
  };
  // Urgently, even when the latest value was already handed over: that hand-over may be an update
  // React has not rendered yet, and the submit's urgent render skips it.
  const handOverNow = () => {
    if (!latest.current.typed) return;
    latest.current.handed = latest.current.seq;
    onChangeRef.current(latest.current.value);
  };
  const discard = () => {
    latest.current.handed = latest.current.seq;
    latest.current.typed = false;
    setInFlight(0);
  };
  useEffect(
    () =>
      pending?.register(field, {
        name,
        typed: () => latest.current.typed,
        value: () => latest.current.value,
        handOver: handOverNow,
        discard,
      }),
    // The handlers read refs only; a field registers once per form.
    [pending, field, name],
  );

  if (!pending) return { shown: value, change: onChange, flush: () => undefined };
  const change = (next: V) => {
    latest.current = { ...latest.current, seq: latest.current.seq + 1, value: next, typed: true };
    setTyped(next);
    setInFlight((count) => count + 1);
    // After the paint, so rjsf's work never delays the typed frame. A plain update, not a transition:
    // a render of another lane (an answer changing the form's props) would otherwise commit rjsf's
    // older data over a hand-over still pending, and lose the key.
    afterPaint(() => {
      handOver();
      // Not below 0: a discard has already counted this one out.
      setInFlight((count) => Math.max(0, count - 1));
    });
  };
  // While a hand-over is scheduled the typed value is the newest; after it, rjsf's is the truth
  // (it also carries programmatic changes such as a cleared code).
  return { shown: inFlight > 0 ? typed : value, change, flush: handOverNow };
}

type FormProps = ComponentPropsWithRef<'form'> & {
  pending: PendingChanges;
  /** The form's validator, which loads after the form is shown (deferred-validation.ts). */
  validator: RefObject<{ isReady(): boolean; ready(): Promise<void> }>;
};

/**
 * rjsf's `tagName`: a <form> whose submit first hands over what is still being typed (see above). A
 * submit before the form's validator has loaded waits for it and is made then; should it not load, a
 * plain form (its step's plainForm) is posted as it is, which the server answers.
 */
export function GuardedForm({ pending, validator, onSubmit, ...props }: FormProps) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        const form = event.currentTarget;
        if (!validator.current.isReady()) {
          event.preventDefault();
          validator.current.ready().then(
            () => form.requestSubmit(),
            () => {
              if (form.dataset[EARLY_MARKS.plain] !== undefined) form.submit();
            },
          );
          return;
        }
        pending.flush();
        onSubmit?.(event);
      }}
    />
  );
}
