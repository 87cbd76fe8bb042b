import type { NavigateSpec, Outcome, StepSpec, SubmitSpec } from './types';
import { holds } from './conditions';
import { resolveMapping, resolveSource, resolveText, type ResolvedText, type Scope } from './scope';
import { encodeState } from './state-param';

export type Transition =
  | { kind: 'step'; step: string }
  | { kind: 'navigate'; path: string; state?: Record<string, unknown>; replace: boolean }
  | { kind: 'redirect'; url: string }
  | { kind: 'authenticate'; answer?: Record<string, unknown> }
  | { kind: 'resubmit' };

export interface ResolvedMessage extends ResolvedText {
  kind: 'success' | 'info' | 'warning' | 'error';
  permanent: boolean;
}

/** What an outcome does, computed without side effects so it can be tested and previewed. */
export interface OutcomePlan {
  ctx: Record<string, unknown>;
  actions: string[];
  report: boolean;
  message?: ResolvedMessage;
  error?: ResolvedText;
  warning?: ResolvedText;
  fieldErrors?: Record<string, ResolvedText>;
  clear: string[];
  setFields?: Record<string, unknown>;
  transition?: Transition;
}

export function buildPath(spec: NavigateSpec, scope: Scope): string {
  const params = resolveMapping(spec.params, scope);
  const path = spec.to.replace(/\{([A-Za-z0-9_]+)\}/g, (_all, name: string) => encodeURIComponent(String(params[name] ?? '')));
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(resolveMapping(spec.query, scope))) query.set(name, String(value));
  if (spec.stateParam) query.set('state', encodeState(resolveMapping(spec.stateParam, scope)));
  const qs = query.toString();
  return qs ? `${path}?${qs}` : path;
}

export function planOutcome(outcome: Outcome, scope: Scope): OutcomePlan {
  const ctx = { ...scope.ctx, ...resolveMapping(outcome.assign, scope) };
  const after: Scope = { ...scope, ctx };
  const plan: OutcomePlan = { ctx, actions: outcome.actions ?? [], report: outcome.report === true, clear: outcome.clear ?? [] };
  if (outcome.message) {
    plan.message = {
      ...resolveText({ key: outcome.message.key, values: outcome.message.values }, after),
      kind: outcome.message.kind ?? 'info',
      permanent: outcome.message.permanent === true,
    };
  }
  if (outcome.error) plan.error = resolveText(outcome.error, after);
  if (outcome.warning) plan.warning = resolveText(outcome.warning, after);
  if (outcome.fieldErrors) {
    plan.fieldErrors = Object.fromEntries(Object.entries(outcome.fieldErrors).map(([field, text]) => [field, resolveText(text, after)]));
  }
  if (outcome.setFields) plan.setFields = resolveMapping(outcome.setFields, after);
  if (outcome.step) plan.transition = { kind: 'step', step: outcome.step };
  else if (outcome.navigate) {
    const state = outcome.navigate.routerState ? resolveMapping(outcome.navigate.routerState, after) : undefined;
    plan.transition = { kind: 'navigate', path: buildPath(outcome.navigate, after), state, replace: outcome.navigate.replace === true };
  } else if (outcome.redirect !== undefined) {
    const url = resolveSource(outcome.redirect, after);
    plan.transition = { kind: 'redirect', url: typeof url === 'string' ? url : '' };
  } else if (outcome.authenticate)
    plan.transition =
      typeof outcome.authenticate === 'object' ? { kind: 'authenticate', answer: resolveMapping(outcome.authenticate, after) } : { kind: 'authenticate' };
  else if (outcome.resubmit) plan.transition = { kind: 'resubmit' };
  return plan;
}

/** A step's submits, one or a list. */
export function submitsOf(step: StepSpec | undefined): SubmitSpec[] {
  return step?.submit === undefined ? [] : Array.isArray(step.submit) ? step.submit : [step.submit];
}

/** The submit that applies: the first whose `when` holds for this data. */
export function activeSubmit(step: StepSpec | undefined, scope: Scope): SubmitSpec | undefined {
  return submitsOf(step).find((submit) => holds(submit.when, scope));
}
