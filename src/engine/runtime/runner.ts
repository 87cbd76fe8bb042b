import type { RefObject } from 'react';
import type { EngineHost } from '../host';
import { runCall, runOutcome, runSubmit, type CallResult, type OutcomeHost } from '../../../catalogue/language/interpreter';
import type { OutcomePlan } from '../../../catalogue/language/outcomes';
import type { Scope } from '../../../catalogue/language/scope';
import { initialFormData } from '../form/initial-data';
import type { FormStepHandle } from '../form/FormStep';
import type { CallSpec, Outcome, ScreenEntry, ScreenModule } from '../types';
import { prefetchFor } from './prefetch';
import { watchedFieldsOf } from './start';
import type { ScreenStore } from './state';

type Form = Record<string, unknown>;

/** What the engine's runner works with: the screen, its host and store, what it read of the address, its form. */
export interface RunnerDeps {
  module: ScreenModule;
  host: EngineHost;
  store: ScreenStore;
  params: ScreenEntry['params'];
  query: Record<string, string>;
  env: Readonly<Record<string, unknown>>;
  formRef: RefObject<FormStepHandle | null>;
  /** Aborted when the screen unmounts: a call's answer then changes nothing. */
  unmounted: AbortController;
}

/** The screen's runs of its outcomes (catalogue/language/interpreter.ts with the engine as its host). */
export interface Runner {
  /** What the current step's fields hold; before its form has mounted, the data it starts with. */
  formData(): Form;
  /** The scope of this form data (default: the watched fields) with the screen's context now. */
  scopeFor(form?: Form): Scope;
  runOutcome(outcome: Outcome, form?: Form): Promise<void>;
  runCall(call: CallSpec, form: Form, background: boolean): Promise<void>;
  submit(form: Form): Promise<void>;
}

/** Actions, the report, the message and field changes of a plan (its state went to the store before). */
async function sideEffects(deps: RunnerDeps, plan: OutcomePlan, result: CallResult | undefined, operation: string | undefined) {
  const { host, module, formRef } = deps;
  for (const name of plan.actions) {
    const action = Object.hasOwn(host.actions, name) ? host.actions[name] : undefined;
    if (!action) throw new Error(`Unknown action "${name}" in screen "${module.screen.id}"`);
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
}

/** The engine as the interpreter's host: the store takes a plan's state, the EngineHost its calls, messages and navigation. */
function outcomeHost(deps: RunnerDeps, formData: () => Form, scopeFor: (form?: Form) => Scope): OutcomeHost<void> {
  const { module, host, store, query, unmounted } = deps;
  return {
    outcomes: module.outcomes,
    step: () => module.screen.steps[store.get().step],
    scope: (form) => scopeFor(form),
    formData,
    async call(call, body) {
      const answer = host.call(call.operation, body, {
        resultFrom: call.resultFrom,
        botCheckAction: call.botCheckAction ?? call.operation,
        retryEveryMs: call.retryEveryMs,
        signal: unmounted.signal,
      });
      // While the server answers, the chunks of where its outcomes lead start loading (the call first).
      prefetchFor(host, call, module.outcomes);
      const result = await answer;
      return unmounted.signal.aborted ? { end: undefined } : result;
    },
    apply(plan, result, operation) {
      const transition = plan.transition;
      const nextStep = transition?.kind === 'step' ? module.screen.steps[transition.step] : undefined;
      const next =
        transition?.kind === 'step'
          ? {
              step: transition.step,
              initial: nextStep?.schema ? initialFormData(nextStep, { ...scopeFor({}), ctx: plan.ctx }) : {},
              watchedFields: watchedFieldsOf(nextStep),
            }
          : undefined;
      store.dispatch({ type: 'planned', plan, next });
      return sideEffects(deps, plan, result, operation);
    },
    transitions: {
      // The store has the next step already (apply).
      step: () => undefined,
      navigate: (to) => host.navigate(to.path, { state: to.state, replace: to.replace }),
      redirect(url) {
        const safe = host.checkUrl(url);
        if (safe) host.leave(safe);
        else store.dispatch({ type: 'failed', error: { key: 'common.errors.unexpected', values: {} } });
      },
      authenticate: (answer) => host.authenticate({ query, response: answer }),
      resubmit: (_plan, again) => again?.(),
      stay: () => undefined,
    },
    idle: () => undefined,
  };
}

export function createRunner(deps: RunnerDeps): Runner {
  const { host, store, params, query, env, formRef } = deps;
  const formData = (): Form => {
    const handle = formRef.current;
    const { step, initial } = store.get();
    return handle && handle.stepName === step ? handle.data() : initial;
  };
  const scopeFor = (form: Form = store.get().watched): Scope => ({ form, ctx: store.get().ctx, params, query, env, flags: host.flags });
  const interpreterHost = outcomeHost(deps, formData, scopeFor);
  return {
    formData,
    scopeFor,
    runOutcome: (outcome, form = formData()) => runOutcome(interpreterHost, outcome, form),
    runCall: (call, form, background) => runCall(interpreterHost, call, form, background),
    submit: (form) => runSubmit(interpreterHost, form),
  };
}
