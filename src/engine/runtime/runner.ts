import type { RefObject } from 'react';
import type { EngineHost } from '../host';
import type { OutcomeHost } from '../../../catalogue/language/interpreter';
import type { Scope } from '../../../catalogue/language/scope';
import { initialFormData } from '../form/initial-data';
import type { FormStepHandle } from '../form/FormStep';
import type { ScreenEntry, ScreenModule } from '../types';
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

/**
 * The engine as the host of the catalogue's interpreter (catalogue/language/interpreter.ts): the store
 * takes a plan's state, the EngineHost its calls, actions, messages and navigation, the form its field
 * changes. `scope()` without data reads the watched fields (what the view's conditions read).
 */
export interface Runner extends OutcomeHost<void> {
  scope(form?: Form): Scope;
}

const nothing = () => undefined;

export function createRunner({ module, host, store, params, query, env, formRef, unmounted }: RunnerDeps): Runner {
  const { steps, id } = module.screen;
  const scope = (form: Form = store.get().watched): Scope => ({ form, ctx: store.get().ctx, params, query, env, flags: host.flags });
  return {
    outcomes: module.outcomes,
    step: () => steps[store.get().step],
    scope,
    /** What the current step's fields hold; before its form has mounted, the data it starts with. */
    formData() {
      const handle = formRef.current;
      const { step, initial } = store.get();
      return handle && handle.stepName === step ? handle.data() : initial;
    },
    async call(call, body) {
      const answer = host.call(call.operation, body, {
        resultFrom: call.resultFrom,
        botCheckAction: call.botCheckAction ?? call.operation,
        retryEveryMs: call.retryEveryMs,
        signal: unmounted.signal,
      });
      // While the server answers, the chunks of where its outcomes lead start loading (the call first;
      // what finds them comes with the first call, out of the first load: ./prefetch.ts).
      if (host.prefetch) void import('./prefetch').then((found) => found.prefetchFor(host, call, module.outcomes));
      const result = await answer;
      return unmounted.signal.aborted ? { end: undefined } : result;
    },
    async apply(plan, result, operation) {
      const to = plan.transition?.kind === 'step' ? plan.transition.step : undefined;
      const next = to === undefined ? undefined : steps[to];
      store.dispatch({
        type: 'planned',
        plan,
        next:
          to === undefined
            ? undefined
            : { step: to, initial: next?.schema ? initialFormData(next, { ...scope({}), ctx: plan.ctx }) : {}, watchedFields: watchedFieldsOf(next) },
      });
      for (const name of plan.actions) {
        const action = Object.hasOwn(host.actions, name) ? host.actions[name] : undefined;
        if (!action) throw new Error(`Unknown action "${name}" in screen "${id}"`);
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
    },
    transitions: {
      // The store has the next step already (apply).
      step: nothing,
      navigate: (to) => host.navigate(to.path, { state: to.state, replace: to.replace }),
      redirect(url) {
        const safe = host.checkUrl(url);
        if (safe) host.leave(safe);
        else store.dispatch({ type: 'failed', error: { key: 'common.errors.unexpected', values: {} } });
      },
      authenticate: (answer) => host.authenticate({ query, response: answer }),
      resubmit: (_plan, again) => again?.(),
      stay: nothing,
    },
    idle: nothing,
  };
}
