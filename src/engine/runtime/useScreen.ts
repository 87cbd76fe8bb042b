import { useCallback, useEffect, useMemo, useRef, useState, useSyncExternalStore } from 'react';
import { useEngineHost } from '../host';
import { formFieldsIn, holds } from '../../../catalogue/language/conditions';
import { initialFormData } from '../form/initial-data';
import { outcomeFor } from '../../../catalogue/language/outcome-lookup';
import { activeSubmit, planOutcome, submitsOf, type OutcomePlan } from '../../../catalogue/language/outcomes';
import { useStepReadiness } from '../readiness';
import { resolveMapping, type Scope } from '../../../catalogue/language/scope';
import { decodeState } from '../../../catalogue/language/state-param';
import type { CallSpec, Outcome, ScreenEntry, ScreenModule, StepSpec } from '../types';
import type { BeforeSubmitHook, ScreenApi } from '../runtime-api';
import type { FormStepHandle } from '../form/FormStep';
import { createScreenStore, pick, type ScreenState } from './state';
import { prefetchFor } from './prefetch';

type Form = Record<string, unknown>;

export { activeSubmit, submitsOf } from '../../../catalogue/language/outcomes';

/** The form fields a step's conditions read: its submits', its blocks' and its UI schema's. One watcher for all. */
export function watchedFieldsOf(step: StepSpec | undefined): string[] {
  const blocks = [...(step?.blocks?.before ?? []), ...(step?.blocks?.after ?? [])];
  const ui = Object.values(step?.uiSchema ?? {}).flatMap((node) =>
    node !== null && typeof node === 'object' ? [(node as Record<string, never>)['ui:hiddenWhen'], (node as Record<string, never>)['ui:readonlyWhen']] : [],
  );
  return formFieldsIn([...submitsOf(step).flatMap((s) => [s.when, s.disabledWhen]), ...blocks.flatMap((b) => [b.when, b.disabledWhen]), ...ui]);
}

function plainRouterState(state: unknown): Record<string, unknown> {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return {};
  // Only primitives: history state survives reloads and is not ours to trust blindly.
  return Object.fromEntries(Object.entries(state as Record<string, unknown>).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)));
}

/**
 * The effects of a screen: it builds the scope, runs calls and outcomes through the host, guards
 * against double submits, and enters the screen (state parameter, query messages, on-enter calls,
 * timers). State changes go through the reducer (state.ts); ScreenRuntime renders.
 */
export function useScreen(module: ScreenModule, entry: ScreenEntry) {
  const { screen } = module;
  const host = useEngineHost();
  const query = useMemo(() => Object.fromEntries(new URLSearchParams(entry.search)), [entry.search]);
  const env = useMemo(() => host.env(query), [host, query]);
  const { params } = entry;
  const stateParam = useMemo(
    () => (screen.stateParam ? decodeState(query.state, screen.stateParam.fields, screen.stateParam.required) : undefined),
    [screen, query.state],
  );
  const formRef = useRef<FormStepHandle>(null);
  const [{ store, entered }] = useState(() => {
    const ctx = { ...screen.context, ...entry.route?.context, ...plainRouterState(entry.state), ...stateParam };
    const scope: Scope = { form: {}, ctx, params, query, env, flags: host.flags };
    const first = firstState(screen, scope, screen.stateParam === undefined || stateParam !== undefined);
    const start = entry.start;
    const stepName = start?.step ?? first.step;
    const step = screen.steps[stepName];
    const initial = step?.schema ? initialFormData(step, { ...scope, ctx: first.ctx }) : {};
    const watchedFields = watchedFieldsOf(step);
    const state: ScreenState = {
      step: stepName,
      ctx: first.ctx,
      initial,
      watchedFields,
      watched: pick(initial, watchedFields),
      fieldErrors: {},
      busy: false,
      ...(start?.error ? { formError: start.error } : {}),
      ...(start?.warning ? { formWarning: start.warning } : {}),
    };
    return { store: createScreenStore(state), entered: first.entered };
  });
  // The same state when hydrating a page the server prerendered (its first state, as here).
  const state = useSyncExternalStore(store.subscribe, store.get, store.get);
  const readiness = useStepReadiness();
  const [unmounted] = useState(() => new AbortController());
  const [beforeSubmitHooks] = useState(() => new Set<BeforeSubmitHook>());

  /** What the current step's fields hold; before its form has mounted, the data it starts with. */
  const formData = useCallback((): Form => {
    const handle = formRef.current;
    const { step, initial } = store.get();
    return handle && handle.stepName === step ? handle.data() : initial;
  }, [store]);

  const scopeFor = useCallback(
    (form: Form = store.get().watched, response?: unknown): Scope => ({ form, ctx: store.get().ctx, params, query, env, flags: host.flags, response }),
    [store, params, query, env, host],
  );

  const applyPlan = useCallback(
    async (
      plan: OutcomePlan,
      result: { code: string; status: number; data: unknown } | undefined,
      operation: string | undefined,
      resubmit: () => Promise<void>,
    ) => {
      const transition = plan.transition;
      const nextStep = transition?.kind === 'step' ? screen.steps[transition.step] : undefined;
      store.dispatch({
        type: 'planned',
        plan,
        next:
          transition?.kind === 'step'
            ? {
                step: transition.step,
                initial: nextStep?.schema ? initialFormData(nextStep, { ...scopeFor({}), ctx: plan.ctx }) : {},
                watchedFields: watchedFieldsOf(nextStep),
              }
            : undefined,
      });
      for (const name of plan.actions) {
        const action = Object.hasOwn(host.actions, name) ? host.actions[name] : undefined;
        if (!action) throw new Error(`Unknown action "${name}" in screen "${screen.id}"`);
        try {
          await action(result?.data);
        } catch (error) {
          console.error(`action ${name} failed`, error);
        }
      }
      if (plan.report && result) {
        const incidentId = (result.data as { incidentId?: unknown } | undefined)?.incidentId;
        host.report({ operation, code: result.code, status: result.status || 200, incidentId: typeof incidentId === 'string' ? incidentId : undefined });
      }
      if (plan.message) host.showMessage(plan.message);
      if (plan.clear.length > 0) formRef.current?.clear(plan.clear);
      if (plan.setFields) formRef.current?.set(plan.setFields);
      switch (transition?.kind) {
        case 'navigate':
          return host.navigate(transition.path, { state: transition.state, replace: transition.replace });
        case 'redirect': {
          const url = host.checkUrl(transition.url);
          if (url) host.leave(url);
          else store.dispatch({ type: 'failed', error: { key: 'common.errors.unexpected', values: {} } });
          return;
        }
        case 'authenticate':
          // An outcome may name the answer itself (a 'Continue' after the sign-in, with no call of its own).
          return host.authenticate({ query, response: transition.answer ?? result?.data });
        case 'resubmit':
          return resubmit();
      }
    },
    [host, screen, store, scopeFor, query],
  );

  const runOutcome = useCallback(
    (outcome: Outcome, form: Form = formData()) => applyPlan(planOutcome(outcome, scopeFor(form)), undefined, undefined, async () => {}),
    [applyPlan, scopeFor, formData],
  );

  /** Runs a call, then the outcome its result code selects (catalogue/language/outcome-lookup.ts). */
  const runCall = useCallback(
    async (call: CallSpec, form: Form, background: boolean, resubmit: () => Promise<void> = async () => {}): Promise<void> => {
      const answer = host.call(call.operation, resolveMapping(call.body, scopeFor(form)), {
        resultFrom: call.resultFrom,
        botCheckAction: call.botCheckAction ?? call.operation,
        retryEveryMs: call.retryEveryMs,
        signal: unmounted.signal,
      });
      // While the server answers, the chunks of where its outcomes lead start loading (the call first).
      prefetchFor(host, call, module.outcomes);
      const result = await answer;
      if (unmounted.signal.aborted) return;
      const { outcome } = outcomeFor(call, result.code, module.outcomes, background);
      await applyPlan(planOutcome(outcome, scopeFor(form, result.data)), result, call.operation, resubmit);
    },
    [host, scopeFor, applyPlan, module.outcomes, unmounted],
  );

  /** The step's active submit for this data: its call or its outcome (a 'Continue'); a resubmit runs it once more. */
  const submit = useCallback(
    async (form: Form, depth = 0): Promise<void> => {
      const scope = scopeFor(form);
      const spec = activeSubmit(screen.steps[store.get().step], scope);
      // Enter in a field, or a widget's own submit, while the button is disabled does nothing either.
      if (!spec || (spec.disabledWhen !== undefined && holds(spec.disabledWhen, scope))) return;
      const again = depth < 1 ? () => submit(formData(), depth + 1) : async () => {};
      if (spec.operation !== undefined) await runCall({ ...spec, operation: spec.operation }, form, false, again);
      else if (spec.outcome) await applyPlan(planOutcome(spec.outcome, scope), undefined, undefined, again);
    },
    [screen, store, scopeFor, runCall, applyPlan, formData],
  );

  /**
   * One operation at a time per screen: no double submit while a call is in flight, and none while
   * a lazy part of the step (a widget whose submit-time work is part of the request) is loading.
   */
  const { isReady, whenReady } = readiness;
  const guarded = useCallback(
    async (work: () => Promise<void>) => {
      if (store.get().busy || !isReady()) return;
      store.dispatch({ type: 'started' });
      try {
        await work();
      } finally {
        if (!unmounted.signal.aborted) store.dispatch({ type: 'settled' });
      }
    },
    [store, isReady, unmounted],
  );

  const onSubmit = useCallback(
    (form: Form) =>
      guarded(async () => {
        // Widgets' submit-time work (e.g. a WebAuthn registration) adds values or cancels the submit.
        let data = form;
        for (const hook of [...beforeSubmitHooks]) {
          const extra = await hook(data);
          if (!extra || unmounted.signal.aborted) return;
          data = { ...data, ...extra };
        }
        await submit(data);
      }),
    [guarded, beforeSubmitHooks, submit, unmounted],
  );
  const onBlockCall = useCallback((call: CallSpec) => guarded(() => runCall(call, formData(), false)), [guarded, runCall, formData]);
  const probeCall = useCallback((call: CallSpec, form: Form) => runCall(call, form, true), [runCall]);
  const onFormChange = useCallback((data: Form) => store.dispatch({ type: 'formChanged', data }), [store]);

  useEnter(screen, stateParam, entered, { query, entry, host, store, scopeFor, runOutcome, runCall, formData, unmounted });

  const api: ScreenApi = useMemo(
    () => ({
      ctx: state.ctx,
      busy: state.busy,
      runCall: onBlockCall,
      runOutcome: async (outcome) => {
        await runOutcome(outcome);
      },
      // A widget's own submit (a key's assertion, the Duo code) waits for the step's other parts: their
      // submit-time work (e.g. trusting this browser) is part of it. A click, by contrast, is refused meanwhile.
      submit: async (extra = {}) => {
        await whenReady();
        if (!unmounted.signal.aborted) await onSubmit({ ...formData(), ...extra });
      },
      data: formData,
      beforeSubmit: (hook) => {
        beforeSubmitHooks.add(hook);
        return () => {
          beforeSubmitHooks.delete(hook);
        };
      },
    }),
    [state.ctx, state.busy, onBlockCall, runOutcome, onSubmit, beforeSubmitHooks, formData, whenReady, unmounted],
  );

  return { state, scope: scopeFor(), api, formRef, readiness, onSubmit, onBlockCall, probeCall, runOutcome, onFormChange };
}

interface EnterDeps {
  query: Record<string, string>;
  entry: ScreenEntry;
  host: ReturnType<typeof useEngineHost>;
  store: ReturnType<typeof createScreenStore>;
  scopeFor: (form?: Form) => Scope;
  runOutcome: (outcome: Outcome) => Promise<void>;
  runCall: (call: CallSpec, form: Form, background: boolean) => Promise<void>;
  formData: () => Form;
  unmounted: AbortController;
}

/** An outcome that only changes the screen's own state (context and step): it can apply before the first render. */
function stateOnly(outcome: Outcome | undefined): outcome is Outcome {
  if (!outcome) return false;
  return Object.keys(outcome).every((key) => key === 'assign' || key === 'step');
}

/**
 * The state the screen opens in: its on-enter actions that only assign context or choose the step
 * (e.g. the reset screen's step by whether the link has a code) apply before the first render, up to
 * the first that applies and calls the server or does anything else (those run once mounted, see
 * useEnter); one whose condition does not hold is passed over here as it would be there.
 * So the first render, and the page the build prerenders of it, already shows that step.
 */
export function firstState(screen: ScreenModule['screen'], scope: Scope, stateOk: boolean): { step: string; ctx: Record<string, unknown>; entered: number } {
  let step = screen.initialStep;
  let ctx = scope.ctx;
  let entered = 0;
  if (!stateOk) return { step, ctx, entered };
  for (const action of screen.onEnter ?? []) {
    // One whose condition does not hold does nothing now, as it would do nothing once mounted.
    const applies = holds(action.when, { ...scope, ctx });
    if (applies && (action.operation !== undefined || !stateOnly(action.outcome))) break;
    entered += 1;
    if (!applies || !action.outcome) continue;
    const plan = planOutcome(action.outcome, { ...scope, ctx });
    ctx = plan.ctx;
    if (plan.transition?.kind === 'step' && screen.steps[plan.transition.step]) step = plan.transition.step;
  }
  return { step, ctx, entered };
}

/** On enter, once per mounted screen: a malformed state parameter, the query message, on-enter calls (after those firstState applied) and timers. */
function useEnter(screen: ScreenModule['screen'], stateParam: Record<string, unknown> | undefined, applied: number, deps: EnterDeps) {
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    const { query, entry, host, store, scopeFor, runOutcome, runCall, formData, unmounted } = deps;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const intervals: ReturnType<typeof setInterval>[] = [];
    void (async () => {
      if (screen.stateParam && !stateParam) {
        await runOutcome(screen.stateParam.otherwise ?? { navigate: { to: '/login', replace: true } });
        return;
      }
      if (query.message !== undefined) {
        const spec = screen.queryMessages?.[query.message];
        if (spec) {
          const values = resolveMapping(spec.values, scopeFor());
          host.showMessage({ key: spec.key, values, kind: spec.kind ?? 'info', permanent: spec.permanent === true });
        }
        const rest = new URLSearchParams(entry.search);
        rest.delete('message');
        const search = rest.toString();
        host.navigate(`${entry.pathname}${search ? `?${search}` : ''}`, { replace: true, state: entry.state as Record<string, unknown> | undefined });
      }
      for (const action of (screen.onEnter ?? []).slice(applied)) {
        if (unmounted.signal.aborted || !holds(action.when, scopeFor())) continue;
        const before = window.location.href;
        if (action.outcome) await runOutcome(action.outcome);
        else if (action.operation) await runCall({ ...action, operation: action.operation }, formData(), true);
        if (window.location.href !== before) return;
      }
      for (const timer of screen.timers ?? []) {
        if (!holds(timer.when, scopeFor())) continue;
        const started = Date.now();
        const { countdown } = timer;
        // Its condition is read again as it runs: a button that makes it false (e.g. "Stay on this
        // page" setting a context flag the timer's `when` negates) turns the time limit off (WCAG 2.2.1).
        if (countdown) {
          const tick = () =>
            holds(timer.when, scopeFor()) &&
            store.dispatch({ type: 'assigned', values: { [countdown]: Math.max(0, Math.ceil((timer.afterMs - (Date.now() - started)) / 1000)) } });
          tick();
          intervals.push(setInterval(tick, 1000));
        }
        timers.push(setTimeout(() => void (holds(timer.when, scopeFor()) && runOutcome(timer.outcome)), timer.afterMs));
      }
    })();
    return () => {
      timers.forEach(clearTimeout);
      intervals.forEach(clearInterval);
    };
    // Entering happens once per mounted screen; the route key remounts it for a new URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);
  useEffect(() => () => deps.unmounted.abort(), [deps.unmounted]);
}
