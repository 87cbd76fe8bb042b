import { useContext, useEffect, useImperativeHandle, useMemo, useRef, useState, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import Form, { type IChangeEvent } from '@rjsf/core';
import type { ErrorSchema, RJSFSchema, ValidatorType } from '@rjsf/utils';
import { widgets } from '../../../widgets/registry';
import type { CallSpec, PrecompiledValidators, StepSpec } from '../types';
import type { ResolvedText, Scope } from '../scope';
import { resolveMapping } from '../scope';
import { fieldOf, makeTransformErrors } from './errors';
import { templates } from './templates';
import { conditionFields, prepareUiSchema } from './ui-schema';
import { ValidatorFactoryContext } from './validator-factory';
import type { ScreenApi } from '../runtime-api';

export interface FormStepHandle {
  data(): Record<string, unknown>;
  clear(fields: string[]): void;
  set(values: Record<string, unknown>): void;
}

export interface FormStepProps {
  ref?: Ref<FormStepHandle>;
  stepName: string;
  step: StepSpec;
  validators: PrecompiledValidators;
  scope: Scope;
  busy: boolean;
  submitLabel?: ResolvedText;
  formError?: ResolvedText;
  formWarning?: ResolvedText;
  fieldErrors: Record<string, ResolvedText>;
  probeCall(call: CallSpec, form: Record<string, unknown>): Promise<void>;
  onSubmit(form: Record<string, unknown>): void;
  /** Every change of the form's data (the host re-evaluates what depends on it, e.g. a submit's '/field' condition). */
  onDataChange?(form: Record<string, unknown>): void;
  /** Handed to widgets as rjsf formContext. */
  api: ScreenApi;
}

type FormData = Record<string, unknown>;

/**
 * One form step rendered by rjsf with the step's precompiled validator (no schema is compiled
 * in the browser). Validation runs on submit, then on blur; never on every keystroke.
 */
export function FormStep({ ref, stepName, step, validators, scope, busy, submitLabel, formError, formWarning, fieldErrors, probeCall, onSubmit, onDataChange, api }: FormStepProps) {
  const { t, i18n } = useTranslation();
  const schema = step.schema as RJSFSchema;
  const [formData, setFormData] = useState<FormData>(() => resolveMapping(step.initialData, scope));
  const dataRef = useRef(formData);
  const [submitted, setSubmitted] = useState(false);

  const makeValidator = useContext(ValidatorFactoryContext);
  const validator = useMemo<ValidatorType>(() => makeValidator(validators, schema), [makeValidator, validators, schema]);
  // Recomputed when the context, flags, language or form change (labels, hidden fields; conditions may read '/field').
  // Re-prepared when the context, flags, language or a field that a condition reads change; not per keystroke.
  const watched = useMemo(() => conditionFields(step.uiSchema), [step.uiSchema]);
  const watchedValues = JSON.stringify(watched.map((field) => formData[field] ?? null));
  const prepared = useMemo(
    () => prepareUiSchema(step.uiSchema, t, { ...scope, form: formData }),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [step.uiSchema, t, i18n.language, scope.ctx, scope.flags, watchedValues],
  );
  const transformErrors = useMemo(() => makeTransformErrors(prepared, t), [prepared, t]);
  const extraErrors = useMemo<ErrorSchema | undefined>(() => {
    const entries = Object.entries(fieldErrors);
    if (entries.length === 0) return undefined;
    return Object.fromEntries(entries.map(([field, text]) => [field, { __errors: [t(text.key, text.values)] }])) as ErrorSchema;
  }, [fieldErrors, t]);

  useImperativeHandle(ref, () => ({
    data: () => dataRef.current,
    clear: (fields) => {
      const next = { ...dataRef.current };
      for (const field of fields) delete next[field];
      // A programmatic change is no user change: the next user change is compared with it.
      for (const field of fields) probed.current.set(field, undefined);
      dataRef.current = next;
      setFormData(next);
    },
    set: (values) => {
      const next = { ...dataRef.current, ...values };
      for (const [field, value] of Object.entries(values)) probed.current.set(field, value);
      dataRef.current = next;
      setFormData(next);
    },
  }));

  // Probes: debounced calls when a field changes (e.g. the authentication-state check).
  const probeTimers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  // The initial values count as probed: a probe runs on a change, not when the form appears.
  const probed = useRef(new Map<string, unknown>(Object.entries(formData)));
  useEffect(() => {
    const timers = probeTimers.current;
    return () => timers.forEach(clearTimeout);
  }, []);

  const runProbes = (data: FormData) => {
    for (const probe of step.probes ?? []) {
      const value = data[probe.field];
      if (probed.current.get(probe.field) === value) continue;
      probed.current.set(probe.field, value);
      const pending = probeTimers.current.get(probe.field);
      if (pending) clearTimeout(pending);
      probeTimers.current.set(
        probe.field,
        setTimeout(() => {
          if (dataRef.current[probe.field] !== value || value === undefined) return;
          if (probe.whenValid) {
            const { errors } = validator.validateFormData(dataRef.current, schema, undefined, transformErrors);
            if (errors.some((error) => fieldOf(error) === probe.field)) return;
          }
          void probeCall(probe, dataRef.current);
        }, probe.debounceMs ?? 0),
      );
    }
  };

  const handleChange = (event: IChangeEvent<FormData>) => {
    const data = event.formData ?? {};
    dataRef.current = data;
    setFormData(data);
    runProbes(data);
    onDataChange?.(data);
  };

  return (
    <Form<FormData>
      className="fd-form"
      idPrefix={`fd_${stepName}`}
      schema={schema}
      uiSchema={prepared.uiSchema}
      formData={formData}
      validator={validator}
      templates={templates}
      widgets={widgets}
      formContext={api}
      transformErrors={transformErrors}
      extraErrors={extraErrors}
      noHtml5Validate
      showErrorList={false}
      liveValidate={submitted ? 'onBlur' : undefined}
      onChange={handleChange}
      onError={() => setSubmitted(true)}
      onSubmit={(event) => {
        setSubmitted(true);
        onSubmit(event.formData ?? {});
      }}
    >
      {formWarning ? (
        <p role="alert" className="fd-form-warning">
          {t(formWarning.key, formWarning.values)}
        </p>
      ) : null}
      {formError ? (
        <p role="alert" className="fd-form-error">
          {t(formError.key, formError.values)}
        </p>
      ) : null}
      {submitLabel ? (
        <button
          type="submit"
          className="fd-button fd-button--primary"
          aria-disabled={busy || undefined}
          data-busy={busy || undefined}
          // Focus stays in the field: its blur validation would otherwise remove an error line and move
          // the button from under the pointer between mousedown and mouseup, losing the click.
          onMouseDown={(event) => event.preventDefault()}
        >
          {t(submitLabel.key, submitLabel.values)}
        </button>
      ) : null}
    </Form>
  );
}
