import { useRef } from 'react';
import { useTranslation } from '../lib/i18n';
import { Blocks } from './Blocks';
import { holds } from '../../catalogue/language/conditions';
import { useFocusAfterChange } from './focus-after-change';
import { FormAlerts } from './form/FormAlerts';
import { FormStep } from './form/FormStep';
import { useEngineHost } from './host';
import { ReadinessProvider } from './readiness';
import { activeSubmit, useScreen } from './runtime/useScreen';
import { resolveText } from '../../catalogue/language/scope';
import { Card } from '../ui';
import type { ScreenEntry, ScreenModule } from './types';

export interface ScreenRuntimeProps {
  module: ScreenModule;
  /** Where the screen was opened: path, query, history state, route parameters and the matched route. */
  entry: ScreenEntry;
}

/**
 * Interprets one screen file: the view of its state (runtime/state.ts) and effects
 * (runtime/useScreen.ts) — the current step's blocks and form. Knows no screen by name, and the
 * app only through the EngineHost.
 */
export function ScreenRuntime({ module, entry }: ScreenRuntimeProps) {
  const { screen } = module;
  const { t } = useTranslation();
  const host = useEngineHost();
  // A route's own title (routes of one screen that differ only in texts) names the page and the first step.
  const routeTitle = entry.route?.title;
  host.useTitle(routeTitle ?? screen.title);
  const { state, scope, api, formRef, readiness, onSubmit, onBlockCall, probeCall, runOutcome, onFormChange } = useScreen(module, entry);
  const { step, formError, formWarning, fieldErrors } = state;
  const card = useRef<HTMLElement>(null);
  useFocusAfterChange(`${screen.id}/${step}`, card);
  const current = screen.steps[step];
  if (!current) throw new Error(`Screen "${screen.id}" has no step "${step}"`);
  const submit = activeSubmit(current, scope);
  // button: false — a widget submits this step (e.g. the hardware key), so no submit button.
  const label = submit && submit.button !== false ? resolveText(submit.label, scope) : undefined;
  // Busy while a call is in flight or a lazy part of the step is still loading.
  const busy = state.busy || !readiness.ready;
  // Every card has its h1: the route's title on the first step, else the step's, else the screen's.
  const title = resolveText((step === screen.initialStep ? routeTitle : undefined) ?? current.title ?? screen.title, scope);
  // Without JavaScript a plain form still works (the server answers its post); any other form, and a
  // screen that calls the server or waits on entering, says it needs JavaScript (noscript: shown only then).
  const needsScript = current.schema
    ? current.plainForm !== true
    : (screen.onEnter ?? []).some((action) => action.operation) || (screen.timers?.length ?? 0) > 0;
  const blocks = (place: 'before' | 'after') => (
    <Blocks blocks={current.blocks?.[place]} scope={scope} api={api} busy={busy} onCall={onBlockCall} onOutcome={(outcome) => void runOutcome(outcome)} />
  );

  return (
    <ReadinessProvider value={readiness.hold}>
      <Card ref={card} layout={screen.layout} data-screen={screen.id} data-step={step} icon={current.icon} heading={t(title.key, title.values)}>
        {needsScript ? (
          <noscript>
            <p className="fd-noscript">{t('common.noscript')}</p>
          </noscript>
        ) : null}
        {blocks('before')}
        {current.schema ? (
          <FormStep
            key={step}
            ref={formRef}
            stepName={step}
            step={current}
            validators={module.validators[step] ?? {}}
            widgets={host.widgets}
            rjsfParts={module.rjsf}
            initialData={state.initial}
            scope={scope}
            busy={busy}
            submitLabel={label}
            submitDisabled={submit?.disabledWhen !== undefined && holds(submit.disabledWhen, scope)}
            formError={formError}
            formWarning={formWarning}
            fieldErrors={fieldErrors}
            probeCall={probeCall}
            onDataChange={onFormChange}
            api={api}
            onSubmit={onSubmit}
          />
        ) : (
          <FormAlerts error={formError} warning={formWarning} />
        )}
        {blocks('after')}
      </Card>
    </ReadinessProvider>
  );
}
