/**
 * The one interpreter of a screen's outcomes: which submit applies, the call, the outcome its result
 * code selects (outcome-lookup.ts), the plan (outcomes.ts) and what the plan does, step by step. Pure:
 * everything that touches the world (the call, the screen's state, messages, navigation, an HTTP
 * answer) is the host's, behind OutcomeHost. Three hosts run it: the engine (src/engine/runtime), the
 * server's plain forms (server/spa/forms.ts) and the studio's simulator (studio/Simulator.tsx, which
 * follows a plan without running it).
 */
import { holds } from './conditions';
import { outcomeFor, type OutcomeSource } from './outcome-lookup';
import { activeSubmit, planOutcome, type OutcomePlan, type Transition } from './outcomes';
import { resolveMapping, type Scope } from './scope';
import type { CallSpec, Outcome, SharedOutcomes, StepSpec } from './types';

type FormData = Record<string, unknown>;

/** A call's answer as the screen sees it: its result code, HTTP status and body. */
export interface CallResult {
  code: string;
  status: number;
  data: unknown;
}

/** What a plan's transition does, one handler per kind (none: `stay`). */
export interface TransitionHandlers<R> {
  step(step: string, plan: OutcomePlan): R;
  /** `response`: the call's answer (a host may treat some routes as the end of the sign-in it answered). */
  navigate(to: Extract<Transition, { kind: 'navigate' }>, plan: OutcomePlan, response: unknown): R;
  redirect(url: string, plan: OutcomePlan): R;
  /** `answer`: what the outcome names as the sign-in's answer, else the call's. */
  authenticate(answer: unknown, plan: OutcomePlan): R;
  /** `again` runs the submit once more; there is none outside a submit, or after the one resubmit a submit may make. */
  resubmit(plan: OutcomePlan, again: (() => R) | undefined): R;
  /** No transition: the screen stays where it is. */
  stay(plan: OutcomePlan): R;
}

/** Follows a plan's transition to the handler of its kind. */
export function follow<R>(plan: OutcomePlan, handlers: TransitionHandlers<R>, response?: unknown, again?: () => R): R {
  const transition = plan.transition;
  switch (transition?.kind) {
    case 'step':
      return handlers.step(transition.step, plan);
    case 'navigate':
      return handlers.navigate(transition, plan, response);
    case 'redirect':
      return handlers.redirect(transition.url, plan);
    case 'authenticate':
      // An outcome may name the answer itself (a 'Continue' after the sign-in, with no call of its own).
      return handlers.authenticate(transition.answer ?? response, plan);
    case 'resubmit':
      return handlers.resubmit(plan, again);
    default:
      return handlers.stay(plan);
  }
}

/** The outcome a call's result selects and its plan under `scope` (the answer's data as `response`). */
export function planFor(
  call: Pick<CallSpec, 'outcomes' | 'include'>,
  result: Pick<CallResult, 'code' | 'data'>,
  shared: SharedOutcomes,
  scope: Scope,
  background: boolean,
): { plan: OutcomePlan; from: OutcomeSource } {
  const { outcome, from } = outcomeFor(call, result.code, shared, background);
  return { plan: planOutcome(outcome, { ...scope, response: result.data }), from };
}

/** What a host lends the interpreter. `R` is what a run ends with: nothing for the engine, an HTTP answer for the server. */
export interface OutcomeHost<R> {
  /** The shared outcomes (screens/shared/outcomes.json) the lookup falls back on. */
  readonly outcomes: SharedOutcomes;
  /** The step whose submit runs. */
  step(): StepSpec | undefined;
  /** The scope for this form data, with the screen's context as it is now. */
  scope(form: FormData): Scope;
  /** The form's data now: a resubmit reads it again. */
  formData(): FormData;
  /** Runs the call's operation; its result, or what the run ends with instead (the screen went away, an answer this host cannot go on from). */
  call(call: CallSpec, body: Record<string, unknown>, background: boolean): Promise<CallResult | { end: R }>;
  /** Everything a plan does but its transition: context, errors, the next step's state, actions, the report, the message, field changes. */
  apply(plan: OutcomePlan, result: CallResult | undefined, operation: string | undefined): Promise<void> | void;
  /** The transitions. */
  readonly transitions: TransitionHandlers<R | Promise<R>>;
  /** A submit when none applies to this data, or the one that applies is disabled. */
  idle(): R;
}

/** A submit may run once more (an outcome's `resubmit`, e.g. after the bot check asked for a token): once. */
export const MAX_RESUBMITS = 1;

async function perform<R>(host: OutcomeHost<R>, plan: OutcomePlan, result: CallResult | undefined, operation: string | undefined, again?: () => Promise<R>) {
  await host.apply(plan, result, operation);
  return follow<R | Promise<R>>(plan, host.transitions, result?.data, again);
}

/** Runs an outcome directly (a button's, a timer's, an on-enter action's, a submit without a call). */
export function runOutcome<R>(host: OutcomeHost<R>, outcome: Outcome, form: FormData, again?: () => Promise<R>): Promise<R> {
  return perform(host, planOutcome(outcome, host.scope(form)), undefined, undefined, again);
}

/**
 * Runs a call, then the outcome its result code selects. `background`: a probe's or an on-enter call's
 * (they keep to their own '*' for network and time-out: outcome-lookup.ts).
 */
export async function runCall<R>(host: OutcomeHost<R>, call: CallSpec, form: FormData, background: boolean, again?: () => Promise<R>): Promise<R> {
  const result = await host.call(call, resolveMapping(call.body, host.scope(form)), background);
  if ('end' in result) return result.end;
  const { plan } = planFor(call, result, host.outcomes, host.scope(form), background);
  return perform(host, plan, result, call.operation, again);
}

/** The step's submit that applies to this data: its call or its outcome (a 'Continue'); a resubmit runs it once more. */
export async function runSubmit<R>(host: OutcomeHost<R>, form: FormData, depth = 0): Promise<R> {
  const scope = host.scope(form);
  const spec = activeSubmit(host.step(), scope);
  // Enter in a field, or a widget's own submit, while the button is disabled does nothing either.
  if (!spec || (spec.disabledWhen !== undefined && holds(spec.disabledWhen, scope))) return host.idle();
  const again = depth < MAX_RESUBMITS ? () => runSubmit(host, host.formData(), depth + 1) : undefined;
  if (spec.operation !== undefined) return runCall(host, { ...spec, operation: spec.operation }, form, false, again);
  return runOutcome(host, spec.outcome ?? {}, form, again);
}
