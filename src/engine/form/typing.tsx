import { createContext, useContext, useEffect, useId, useRef, useState, type ComponentPropsWithRef } from 'react';

/**
 * Typing that paints at once. A change to rjsf's data re-derives the form's state and re-renders
 * every field: on a slow phone that is several frames per keystroke. So a field shows what was typed
 * from its own state (an urgent render of one input) and, once that frame is painted, hands the
 * latest value to rjsf; keys typed meanwhile are handed over once.
 *
 * What reads rjsf's data at once must see the typed value first: a submit (`GuardedForm`) and the
 * field's own blur validation hand over what is still in flight, synchronously, in the same event,
 * and rjsf applies its queued changes in order, so the submit validates and sends what is on screen.
 * "In flight" lasts until the update that hands a value over has committed, not just been queued.
 */
interface InFlight {
  /** The field's name in the form data. */
  name: string;
  value: unknown;
  /** Hands the typed value to rjsf now. */
  flush(): void;
  /** Drops it: a programmatic change of the field wins. */
  discard(): void;
}

export class PendingChanges {
  private readonly fields = new Map<string, InFlight>();

  /** A change of field `field` is in flight. */
  start(field: string, change: InFlight): void {
    this.fields.set(field, change);
  }

  done(field: string): void {
    this.fields.delete(field);
  }

  /** `data` with the values still in flight: what the fields show (a button beside the form reads it). */
  overlay(data: Record<string, unknown>): Record<string, unknown> {
    if (this.fields.size === 0) return data;
    const out = { ...data };
    for (const { name, value } of this.fields.values()) {
      if (value === undefined) delete out[name];
      else out[name] = value;
    }
    return out;
  }

  /** Hands every value still in flight to rjsf, in the caller's event. */
  flush(): void {
    for (const change of [...this.fields.values()]) change.flush();
  }

  /** The same for one field, when it has a change in flight. */
  flushField(field: string): void {
    this.fields.get(field)?.flush();
  }

  /** Drops what is in flight for these form fields (the step sets or clears them itself). */
  discard(names: string[]): void {
    for (const [field, change] of [...this.fields]) {
      if (!names.includes(change.name)) continue;
      change.discard();
      this.fields.delete(field);
    }
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
  // The latest typed value and its number, and the number of the last value rjsf was given.
  const latest = useRef({ seq: 0, value, handed: 0 });
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
    latest.current.handed = latest.current.seq;
    onChangeRef.current(latest.current.value);
  };
  const discard = () => {
    latest.current.handed = latest.current.seq;
    setInFlight(0);
  };
  useEffect(() => {
    if (inFlight === 0) pending?.done(field);
  }, [inFlight, pending, field]);
  // A field that goes away (another step) has nothing to hand over any more.
  useEffect(() => () => pending?.done(field), [pending, field]);

  if (!pending) return { shown: value, change: onChange, flush: () => undefined };
  const change = (next: V) => {
    latest.current = { ...latest.current, seq: latest.current.seq + 1, value: next };
    setTyped(next);
    setInFlight((count) => count + 1);
    pending.start(field, { name, value: next, flush: handOverNow, discard });
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
  return { shown: inFlight > 0 ? typed : value, change, flush: () => pending.flushField(field) };
}

type FormProps = ComponentPropsWithRef<'form'> & { pending: PendingChanges };

/** rjsf's `tagName`: a <form> whose submit first hands over what is still being typed (see above). */
export function GuardedForm({ pending, onSubmit, ...props }: FormProps) {
  return (
    <form
      {...props}
      onSubmit={(event) => {
        pending.flush();
        onSubmit?.(event);
      }}
    />
  );
}
