import { useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useEngineHost } from '../host';
import { useStepReadiness, type StepReadiness } from '../readiness';
import type { BeforeSubmitHook, ScreenApi } from '../runtime-api';
import type { FormStepHandle } from '../form/FormStep';
import type { CallSpec, Outcome, ScreenEntry, ScreenModule } from '../types';
import { useEnter } from './enter';
import { createRunner, type Runner } from './runner';
import { runCall, runOutcome, runSubmit } from '../../../catalogue/language/interpreter';
import { useScreenStart } from './start';
import type { ScreenStore } from './state';

type Form = Record<string, unknown>;

export { activeSubmit, submitsOf } from '../../../catalogue/language/outcomes';
export { firstState, watchedFieldsOf } from './start';

/** The screen's handlers for its view: the form's submit and changes, block buttons, probes. */
interface ScreenHandlers {
  onSubmit(form: Form): Promise<void>;
  onBlockCall(call: CallSpec): Promise<void>;
  probeCall(call: CallSpec, form: Form): Promise<void>;
  runOutcome(outcome: Outcome): Promise<void>;
  onFormChange(data: Form): void;
}

/**
 * One operation at a time per screen: no double submit while a call is in flight, and none while
 * a lazy part of the step (a widget whose submit-time work is part of the request) is loading.
 */
function screenHandlers(runner: Runner, store: ScreenStore, isReady: () => boolean, unmounted: AbortController, hooks: Set<BeforeSubmitHook>): ScreenHandlers {
  const guarded = async (work: () => Promise<void>) => {
    if (store.get().busy || !isReady()) return;
    store.dispatch({ type: 'started' });
    try {
      await work();
    } finally {
      if (!unmounted.signal.aborted) store.dispatch({ type: 'settled' });
    }
  };
  return {
    onSubmit: (form) =>
      guarded(async () => {
        // Widgets' submit-time work (e.g. a WebAuthn registration) adds values or cancels the submit.
        let data = form;
        for (const hook of [...hooks]) {
          const extra = await hook(data);
          if (!extra || unmounted.signal.aborted) return;
          data = { ...data, ...extra };
        }
        await runSubmit(runner, data);
      }),
    onBlockCall: (call) => guarded(() => runCall(runner, call, runner.formData(), false)),
    probeCall: (call, form) => runCall(runner, call, form, true),
    runOutcome: (outcome) => runOutcome(runner, outcome, runner.formData()),
    onFormChange: (data) => store.dispatch({ type: 'formChanged', data }),
  };
}

/** What widgets and content components may ask of the screen (runtime-api.ts). */
function screenApi(
  state: { ctx: Record<string, unknown>; busy: boolean },
  handlers: ScreenHandlers,
  runner: Runner,
  whenReady: StepReadiness['whenReady'],
  unmounted: AbortController,
  hooks: Set<BeforeSubmitHook>,
): ScreenApi {
  return {
    ctx: state.ctx,
    busy: state.busy,
    runCall: handlers.onBlockCall,
    runOutcome: handlers.runOutcome,
    // A widget's own submit (a key's assertion, the Duo code) waits for the step's other parts: their
    // submit-time work (e.g. trusting this browser) is part of it. A click, by contrast, is refused meanwhile.
    submit: async (extra = {}) => {
      await whenReady();
      if (!unmounted.signal.aborted) await handlers.onSubmit({ ...runner.formData(), ...extra });
    },
    data: runner.formData,
    beforeSubmit: (hook) => {
      hooks.add(hook);
      return () => {
        hooks.delete(hook);
      };
    },
  };
}

/**
 * The effects of a screen: its start (start.ts), its runs of outcomes through the host (runner.ts:
 * the catalogue's interpreter with the engine as its host), the guard against double submits, and
 * entering (enter.ts). State changes go through the reducer (state.ts); ScreenRuntime renders.
 */
export function useScreen(module: ScreenModule, entry: ScreenEntry) {
  const host = useEngineHost();
  const start = useScreenStart(module, entry, host);
  const { store, query, env } = start;
  const { params } = entry;
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  const readiness = useStepReadiness();
  const { isReady, whenReady } = readiness;
  const formRef = useRef<FormStepHandle>(null);
  const [unmounted] = useState(() => new AbortController());
  const [hooks] = useState(() => new Set<BeforeSubmitHook>());
  const runner = useMemo(
    () => createRunner({ module, host, store, params, query, env, formRef, unmounted }),
    [module, host, store, params, query, env, unmounted],
  );
  const handlers = useMemo(() => screenHandlers(runner, store, isReady, unmounted, hooks), [runner, store, isReady, unmounted, hooks]);
  const { ctx, busy } = state;
  const api = useMemo(
    () => screenApi({ ctx, busy }, handlers, runner, whenReady, unmounted, hooks),
    [ctx, busy, handlers, runner, whenReady, unmounted, hooks],
  );
  useEnter({ screen: module.screen, entry, start, host, runner, unmounted });
  return { state, scope: runner.scope(), api, formRef, readiness, ...handlers };
}
