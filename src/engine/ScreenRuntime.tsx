import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate, useParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import type { CallResult } from '../api/client';
import { reportFailure } from '../api/report';
import { useMessages } from '../app/messages';
import { usePageTitle } from '../app/page-title';
import { sameSitePath, serverRedirectUrl } from '../app/redirects';
import { useSite } from '../app/site';
import { pickLanguage } from '../app/i18n';
import { SUPPORTED_LANGUAGES } from '../app/languages';
import { actions, EXPIRED_TRIAL_COOKIE, readCookie } from './actions';
import { Blocks } from './Blocks';
import { outcomeFor, performCall } from './flow';
import { FormStep, type FormStepHandle } from './form/FormStep';
import { initialFormData } from './form/initial-data';
import { planOutcome, type OutcomePlan } from './outcomes';
import { formFieldsIn, holds, resolveText, type ResolvedText, type Scope } from './scope';
import { ReadinessProvider, useStepReadiness } from './readiness';
import { decodeState } from './state-param';
import { useBotCheck } from './use-bot-check';
import { Alert, Card } from '../ui';
import type { CallSpec, Outcome, ScreenModule, SubmitSpec } from './types';
import type { BeforeSubmitHook, ScreenApi } from './runtime-api';

export interface ScreenRuntimeProps {
  module: ScreenModule;
  /** Context values of the matched route (e.g. marketing: true on /mlogin). */
  routeContext?: Record<string, unknown>;
}

/** Fallback for a result code no outcome table handles: say so, never stay silent. */
const UNHANDLED: Outcome = { error: 'common.errors.unexpected', report: true };

function plainRouterState(state: unknown): Record<string, unknown> {
  if (state === null || typeof state !== 'object' || Array.isArray(state)) return {};
  // Only primitives: history state survives reloads and is not ours to trust blindly.
  return Object.fromEntries(
    Object.entries(state as Record<string, unknown>).filter(([, v]) => ['string', 'number', 'boolean'].includes(typeof v)),
  );
}

/**
 * Interprets one screen file: context, on-enter calls, timers, the current step's form or
 * content, submits through the flow runner and the outcome table. Knows no screen by name.
 */
export function ScreenRuntime({ module, routeContext }: ScreenRuntimeProps) {
  const { screen } = module;
  const { t } = useTranslation();
  const site = useSite();
  const messages = useMessages();
  const navigate = useNavigate();
  const location = useLocation();
  const params = useParams();
  const botCheck = useBotCheck(site.botCheck);
  usePageTitle(screen.title);

  const query = useMemo(() => Object.fromEntries(new URLSearchParams(location.search)), [location.search]);
  const env = useMemo(
    () => ({
      origin: window.location.origin,
      brandingHostname: window.location.hostname,
      returnTo: sameSitePath(query.return_to ?? query.redirect_uri, window.location.origin),
      // The visitor's browser language among the product's languages (SPEC §3), e.g. a form default.
      browserLanguage: pickLanguage(navigator.languages?.length ? navigator.languages : [navigator.language], SUPPORTED_LANGUAGES),
    }),
    [query],
  );
  const flags = useMemo(
    () => ({
      branded: site.branded,
      production: site.production,
      selfRegistrationEnabled: site.selfRegistrationEnabled,
      expiredTrialCookie: readCookie(EXPIRED_TRIAL_COOKIE) !== undefined,
    }),
    [site],
  );

  const stateParam = useMemo(
    () => (screen.stateParam ? decodeState(query.state, screen.stateParam.fields, screen.stateParam.required) : undefined),
    [screen, query.state],
  );
  const [ctx, setCtx] = useState<Record<string, unknown>>(() => ({
    ...screen.context,
    ...routeContext,
    ...plainRouterState(location.state),
    ...stateParam,
  }));
  const ctxRef = useRef(ctx);
  /** Sets context values outside an outcome (a timer's countdown). */
  const assignCtx = useCallback((values: Record<string, unknown>) => {
    ctxRef.current = { ...ctxRef.current, ...values };
    setCtx(ctxRef.current);
  }, []);
  const [step, setStep] = useState(screen.initialStep);
  const [formError, setFormError] = useState<ResolvedText>();
  const [formWarning, setFormWarning] = useState<ResolvedText>();
  const [fieldErrors, setFieldErrors] = useState<Record<string, ResolvedText>>({});
  const [busy, setBusy] = useState(false);
  // Only to re-render: which submit applies (and its label), and which blocks show, may depend on form
  // fields ('/field' conditions). Bumped only when such a field changes, not on every keystroke.
  const [, setWatchedForm] = useState('');
  const busyRef = useRef(false);
  const formRef = useRef<FormStepHandle>(null);
  // The step on show and the data its form starts with (set when the step is first rendered).
  const stepForm = useRef<{ step: string; initial: Record<string, unknown> }>({ step: '', initial: {} });
  const unmounted = useRef(new AbortController());
  const beforeSubmitHooks = useRef(new Set<BeforeSubmitHook>()).current;
  const readiness = useStepReadiness();

  /**
   * What the current step's fields hold. Until its form has mounted (the step's first render, when
   * the ref still holds the previous step's form or none), the data it starts with: so '/field'
   * conditions hold from the first paint, not only after a change.
   */
  const formData = useCallback((): Record<string, unknown> => {
    const handle = formRef.current;
    return handle && handle.stepName === stepForm.current.step ? handle.data() : stepForm.current.initial;
  }, []);

  const scopeFor = useCallback(
    (overrides: Partial<Scope> = {}): Scope => ({
      form: overrides.form ?? formData(),
      ctx: ctxRef.current,
      params,
      query,
      env,
      flags,
      ...overrides,
    }),
    [params, query, env, flags, formData],
  );

  const submitRef = useRef<(form: Record<string, unknown>, depth: number) => Promise<void>>(async () => {});

  const applyPlan = useCallback(
    async (plan: OutcomePlan, result: CallResult | undefined, operation: string | undefined, depth: number) => {
      ctxRef.current = plan.ctx;
      setCtx(plan.ctx);
      for (const name of plan.actions) {
        const impl = actions[name];
        if (!impl) throw new Error(`Unknown action "${name}" in screen "${screen.id}"`);
        try {
          await impl({ response: result?.data });
        } catch (error) {
          console.error(`action ${name} failed`, error);
        }
      }
      if (plan.report && result) {
        const incidentId = (result.data as { incidentId?: unknown } | undefined)?.incidentId;
        reportFailure({ operation, code: result.code, status: result.status || 200, incidentId: typeof incidentId === 'string' ? incidentId : undefined });
      }
      if (plan.message) messages.show(plan.message);
      if (plan.error) setFormError(plan.error);
      if (plan.warning) setFormWarning(plan.warning);
      if (plan.fieldErrors) setFieldErrors(plan.fieldErrors);
      if (plan.clear.length > 0) formRef.current?.clear(plan.clear);
      if (plan.setFields) formRef.current?.set(plan.setFields);
      const transition = plan.transition;
      if (!transition) return;
      switch (transition.kind) {
        case 'step':
          // The next step starts clean but for what this outcome says about it, e.g. a field of an
          // earlier step that the server refused (marked there, and focused).
          setFormError(plan.error);
          setFormWarning(plan.warning);
          setFieldErrors(plan.fieldErrors ?? {});
          setStep(transition.step);
          return;
        case 'navigate':
          navigate(transition.path, { state: transition.state, replace: transition.replace });
          return;
        case 'redirect': {
          const url = serverRedirectUrl(transition.url, window.location.origin);
          if (url) window.location.assign(url);
          else setFormError({ key: 'common.errors.unexpected', values: {} });
          return;
        }
        case 'authenticate': {
          const userType = (result?.data as { userType?: string } | undefined)?.userType;
          const { goAfterSignIn } = await import('../app/after-sign-in');
          await goAfterSignIn(query.return_to ?? query.redirect_uri, userType);
          return;
        }
        case 'resubmit':
          if (depth < 1) await submitRef.current(formData(), depth + 1);
          return;
      }
    },
    [query, messages, navigate, screen.id, formData],
  );

  /** Runs a call and then the outcome its result code selects. */
  const runCall = useCallback(
    async (call: CallSpec, form: Record<string, unknown>, depth = 0): Promise<void> => {
      const result = await performCall(call, scopeFor({ form }), { botCheck, signal: unmounted.current.signal });
      if (unmounted.current.signal.aborted) return;
      const outcome = outcomeFor(call.outcomes, result.code) ?? UNHANDLED;
      await applyPlan(planOutcome(outcome, scopeFor({ form, response: result.data })), result, call.operation, depth);
    },
    [applyPlan, botCheck, scopeFor],
  );

  const runOutcome = useCallback(
    (outcome: Outcome) => applyPlan(planOutcome(outcome, scopeFor()), undefined, undefined, 0),
    [applyPlan, scopeFor],
  );

  const current = screen.steps[step];
  if (stepForm.current.step !== step) {
    stepForm.current = { step, initial: current?.schema ? initialFormData(current, scopeFor({ form: {} })) : {} };
  }
  const submits: SubmitSpec[] = current?.submit ? (Array.isArray(current.submit) ? current.submit : [current.submit]) : [];
  const watchedFields = useMemo(
    () =>
      formFieldsIn([
        ...submits.flatMap((s) => [s.when, s.disabledWhen]),
        ...[...(current?.blocks?.before ?? []), ...(current?.blocks?.after ?? [])].flatMap((b) => [b.when, b.disabledWhen]),
      ]),
    // The step's spec is static catalogue data: it changes only with the step.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [current],
  );
  const onFormData = useCallback(
    (data: Record<string, unknown>) => setWatchedForm(JSON.stringify(watchedFields.map((field) => data[field] ?? null))),
    [watchedFields],
  );
  const activeSubmit = submits.find((s) => holds(s.when, scopeFor()));

  submitRef.current = async (form, depth) => {
    const spec = submits.find((s) => holds(s.when, scopeFor({ form })));
    if (!spec) return;
    // Enter in a field, or a widget's own submit, while the button is disabled does nothing either.
    if (spec.disabledWhen !== undefined && holds(spec.disabledWhen, scopeFor({ form }))) return;
    if (spec.operation !== undefined) await runCall({ ...spec, operation: spec.operation }, form, depth);
    else if (spec.outcome) await applyPlan(planOutcome(spec.outcome, scopeFor({ form })), undefined, undefined, depth);
  };

  /**
   * One operation at a time per screen: no double submit while a call is in flight, and none while
   * a lazy part of the step (a widget whose submit-time work is part of the request) is loading.
   */
  const { isReady } = readiness;
  const guarded = useCallback(async (work: () => Promise<void>) => {
    if (busyRef.current || !isReady()) return;
    busyRef.current = true;
    setBusy(true);
    setFormError(undefined);
    setFormWarning(undefined);
    setFieldErrors({});
    try {
      await work();
    } finally {
      busyRef.current = false;
      if (!unmounted.current.signal.aborted) setBusy(false);
    }
  }, [isReady]);

  const onSubmit = useCallback(
    (form: Record<string, unknown>) =>
      guarded(async () => {
        // Widgets' submit-time work (e.g. a WebAuthn registration) adds values or cancels the submit.
        let data = form;
        for (const hook of [...beforeSubmitHooks]) {
          const extra = await hook(data);
          if (!extra || unmounted.current.signal.aborted) return;
          data = { ...data, ...extra };
        }
        await submitRef.current(data, 0);
      }),
    [guarded, beforeSubmitHooks],
  );
  const onBlockCall = useCallback(
    (call: CallSpec) => guarded(() => runCall(call, formData())),
    [guarded, runCall, formData],
  );

  // On enter: a malformed state parameter, query messages, on-enter actions and timers.
  const entered = useRef(false);
  useEffect(() => {
    if (entered.current) return;
    entered.current = true;
    const controller = unmounted.current;
    const timers: ReturnType<typeof setTimeout>[] = [];
    const intervals: ReturnType<typeof setInterval>[] = [];
    void (async () => {
      if (screen.stateParam && !stateParam) {
        await runOutcome(screen.stateParam.otherwise ?? { navigate: { to: '/login', replace: true } });
        return;
      }
      const messageName = query.message;
      if (messageName !== undefined) {
        const spec = screen.queryMessages?.[messageName];
        if (spec) messages.show({ ...resolveText({ key: spec.key, values: spec.values }, scopeFor()), kind: spec.kind, permanent: spec.permanent });
        const rest = new URLSearchParams(location.search);
        rest.delete('message');
        const search = rest.toString();
        navigate({ pathname: location.pathname, search: search ? `?${search}` : '' }, { replace: true, state: location.state });
      }
      for (const action of screen.onEnter ?? []) {
        if (controller.signal.aborted || !holds(action.when, scopeFor())) continue;
        const before = window.location.href;
        if (action.outcome) await runOutcome(action.outcome);
        else if (action.operation) await runCall(action as CallSpec, formData());
        if (window.location.href !== before) return;
      }
      for (const timer of screen.timers ?? []) {
        if (!holds(timer.when, scopeFor())) continue;
        const started = Date.now();
        const { countdown } = timer;
        if (countdown) {
          const tick = () => assignCtx({ [countdown]: Math.max(0, Math.ceil((timer.afterMs - (Date.now() - started)) / 1000)) });
          tick();
          intervals.push(setInterval(tick, 1000));
        }
        timers.push(setTimeout(() => void runOutcome(timer.outcome), timer.afterMs));
      }
    })();
    return () => {
      timers.forEach(clearTimeout);
      intervals.forEach(clearInterval);
    };
    // Entering happens once per mounted screen; the route key remounts it for a new URL.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => () => unmounted.current.abort(), []);

  const api: ScreenApi = useMemo(
    () => ({
      ctx,
      busy,
      runCall: onBlockCall,
      runOutcome: async (outcome) => {
        await runOutcome(outcome);
      },
      submit: (extra = {}) => onSubmit({ ...formData(), ...extra }),
      beforeSubmit: (hook) => {
        beforeSubmitHooks.add(hook);
        return () => {
          beforeSubmitHooks.delete(hook);
        };
      },
    }),
    [ctx, busy, onBlockCall, runOutcome, onSubmit, beforeSubmitHooks, formData],
  );

  if (!current) throw new Error(`Screen "${screen.id}" has no step "${step}"`);
  const scope = scopeFor();
  // button: false — a widget submits this step (e.g. the hardware key), so no submit button.
  const label = activeSubmit && activeSubmit.button !== false ? resolveText(activeSubmit.label, scope) : undefined;
  // Busy while a call is in flight or a lazy part of the step is still loading.
  const stepBusy = busy || !readiness.ready;

  return (
    <ReadinessProvider value={readiness.hold}>
      <Card
        layout={screen.layout}
        data-screen={screen.id}
        data-step={step}
        icon={current.icon}
        heading={t(resolveText(current.title ?? screen.title, scope).key, resolveText(current.title ?? screen.title, scope).values)}
      >
        <Blocks blocks={current.blocks?.before} scope={scope} api={api} busy={stepBusy} onCall={onBlockCall} onOutcome={runOutcome} />
        {current.schema ? (
          <FormStep
            key={step}
            ref={formRef}
            stepName={step}
            step={current}
            validators={module.validators[step] ?? {}}
            rjsfParts={module.rjsf}
            initialData={stepForm.current.initial}
            scope={scope}
            busy={stepBusy}
            submitLabel={label}
            submitDisabled={activeSubmit?.disabledWhen !== undefined && holds(activeSubmit.disabledWhen, scope)}
            formError={formError}
            formWarning={formWarning}
            fieldErrors={fieldErrors}
            probeCall={(call, form) => runCall(call, form)}
            onDataChange={onFormData}
            api={api}
            onSubmit={onSubmit}
          />
        ) : (
          <>
            {formError ? <Alert kind="error" role="alert" className="fd-form-error">{t(formError.key, formError.values)}</Alert> : null}
            {formWarning ? <Alert kind="warning" role="alert" className="fd-form-warning">{t(formWarning.key, formWarning.values)}</Alert> : null}
          </>
        )}
        <Blocks blocks={current.blocks?.after} scope={scope} api={api} busy={stepBusy} onCall={onBlockCall} onOutcome={runOutcome} />
      </Card>
    </ReadinessProvider>
  );
}
