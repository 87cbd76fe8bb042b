import { useMemo, useState } from 'react';
import type { EngineHost } from '../host';
import { formFieldsIn, holds } from '../../../catalogue/language/conditions';
import { submitsOf, planOutcome } from '../../../catalogue/language/outcomes';
import type { Scope } from '../../../catalogue/language/scope';
import { decodeState } from '../../../catalogue/language/state-param';
import { initialFormData } from '../form/initial-data';
import type { Outcome, ScreenEntry, ScreenModule, StepSpec } from '../types';
import { createScreenStore, pick, type ScreenStore } from './state';

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

/** An outcome that only changes the screen's own state (context and step): it can apply before the first render. */
function stateOnly(outcome: Outcome | undefined): outcome is Outcome {
  if (!outcome) return false;
  return Object.keys(outcome).every((key) => key === 'assign' || key === 'step');
}

/**
 * The state the screen opens in: its on-enter actions that only assign context or choose the step
 * (e.g. the reset screen's step by whether the link has a code) apply before the first render, up to
 * the first that applies and calls the server or does anything else (those run once mounted, see
 * enter.ts); one whose condition does not hold is passed over here as it would be there.
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

/** What a mounted screen starts from: its store, how many on-enter actions firstState applied, and what it reads of the address. */
export interface ScreenStart {
  store: ScreenStore;
  /** The on-enter actions firstState applied already. */
  entered: number;
  query: Record<string, string>;
  env: Readonly<Record<string, unknown>>;
  /** The state parameter's fields, or undefined when the screen reads none or it is malformed. */
  stateParam: Record<string, unknown> | undefined;
}

function openStore(module: ScreenModule, entry: ScreenEntry, scope: Scope, stateParam: Record<string, unknown> | undefined) {
  const { screen } = module;
  const first = firstState(screen, scope, screen.stateParam === undefined || stateParam !== undefined);
  const start = entry.start;
  const stepName = start?.step ?? first.step;
  const step = screen.steps[stepName];
  const initial = step?.schema ? initialFormData(step, { ...scope, ctx: first.ctx }) : {};
  const watchedFields = watchedFieldsOf(step);
  const store = createScreenStore({
    step: stepName,
    ctx: first.ctx,
    initial,
    watchedFields,
    watched: pick(initial, watchedFields),
    fieldErrors: {},
    busy: false,
    ...(start?.error ? { formError: start.error } : {}),
    ...(start?.warning ? { formWarning: start.warning } : {}),
  });
  return { store, entered: first.entered };
}

/** The screen's start: the address read once, and the store created once per mounted screen. */
export function useScreenStart(module: ScreenModule, entry: ScreenEntry, host: EngineHost): ScreenStart {
  const { screen } = module;
  const query = useMemo(() => Object.fromEntries(new URLSearchParams(entry.search)), [entry.search]);
  const env = useMemo(() => host.env(query), [host, query]);
  const stateParam = useMemo(
    () => (screen.stateParam ? decodeState(query.state, screen.stateParam.fields, screen.stateParam.required) : undefined),
    [screen, query.state],
  );
  const [{ store, entered }] = useState(() => {
    const ctx = { ...screen.context, ...entry.route?.context, ...plainRouterState(entry.state), ...stateParam };
    return openStore(module, entry, { form: {}, ctx, params: entry.params, query, env, flags: host.flags }, stateParam);
  });
  return { store, entered, query, env, stateParam };
}
